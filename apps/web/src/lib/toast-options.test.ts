import { describe, expect, it } from 'vitest';
import { toastOptions } from './toast-options.ts';

// Spec 000 §9: a screen's own toast lasts 2500 ms; the notification plugin's (the API client's answers)
// 5000 ms, at the bottom.
describe('toastOptions', () => {
  it("a screen's own toast closes after 2500 ms", () => {
    expect(toastOptions('component', 'red', 'Only images can be attached.')).toMatchObject({
      autoClose: 2500,
      color: 'red',
      message: 'Only images can be attached.',
    });
  });

  it("the API client's toasts close after 5000 ms, at the bottom", () => {
    expect(toastOptions('notification', 'green', 'Saved.')).toEqual({
      autoClose: 5000,
      color: 'green',
      message: 'Saved.',
      position: 'bottom-center',
    });
  });
});
