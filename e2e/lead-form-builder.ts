import type { Page } from 'playwright-core';

// The lead form builder's steps that more than one browser test takes (lead-form-screens, lead-journey):
// the fields found by their test ids (listed at the top of apps/web/src/features/leadforms/
// lead-form-builder-page.tsx).

const WAIT = { timeout: 20_000 };

/** Fills a field found by its test id, once it is on the page. */
export async function fill(page: Page, testId: string, value: string): Promise<void> {
  const field = page.getByTestId(testId);
  await field.waitFor(WAIT);
  await field.fill(value);
}

/** Adds a question of `type` to step `s` from the type menu. */
export async function addQuestion(page: Page, s: number, type: string): Promise<void> {
  await page.getByTestId(`lf-add-question-${s}`).click();
  await page.getByTestId(`lf-add-question-${s}-${type}`).click();
}

/**
 * Steps 2 and 3 in English, after the starter's first step: a required choice "What are you interested in?"
 * whose options Whitening and Implants give the tags labelled `tags.whitening` and `tags.implants`, then a
 * long text. The preview shows the choice as the visitor will see it.
 */
export async function addChoiceAndNotesSteps(
  page: Page,
  tags: { whitening: string; implants: string },
): Promise<void> {
  await page.getByTestId('lf-add-step').click();
  await fill(page, 'lf-step-1-title-en', 'Your smile');
  await addQuestion(page, 1, 'choice');
  await fill(page, 'lf-q-1-0-label-en', 'What are you interested in?');
  await page.getByTestId('lf-q-1-0-required').click({ force: true });
  await fill(page, 'lf-opt-1-0-0-label-en', 'Whitening');
  await fill(page, 'lf-opt-1-0-1-label-en', 'Implants');
  await page.getByTestId('lf-opt-1-0-0-tag').selectOption({ label: tags.whitening });
  await page.getByTestId('lf-opt-1-0-1-tag').selectOption({ label: tags.implants });
  await page.getByTestId('lf-preview').getByText('What are you interested in?').waitFor(WAIT);

  await page.getByTestId('lf-add-step').click();
  await addQuestion(page, 2, 'long_text');
  await fill(page, 'lf-q-2-0-label-en', 'Anything else we should know?');
}

/** The Spanish words of those two steps (the starter's are there already), then Save, and the edit page. */
export async function spanishOfNewStepsAndSave(page: Page): Promise<void> {
  await page.getByTestId('lf-tab-es').click();
  await page.getByTestId('lf-step-tab-1').click();
  await fill(page, 'lf-step-1-title-es', 'Tu sonrisa');
  await fill(page, 'lf-q-1-0-label-es', '¿Qué te interesa?');
  await fill(page, 'lf-opt-1-0-0-label-es', 'Blanqueamiento');
  await fill(page, 'lf-opt-1-0-1-label-es', 'Implantes');
  await page.getByTestId('lf-preview').getByText('¿Qué te interesa?').waitFor(WAIT);
  await page.getByTestId('lf-step-tab-2').click();
  await fill(page, 'lf-q-2-0-label-es', '¿Algo más que debamos saber?');
  await page.getByTestId('lf-save').click();
  await page.waitForURL(/\/business\/leadForms\/\d+\/edit$/, WAIT);
}
