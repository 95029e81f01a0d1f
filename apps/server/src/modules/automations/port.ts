// What the contacts module asks of automations (the `automations` port, ADR 054), wired in ports.ts.
// The triggers work (ADR 069) answers it with real runs; until then no automation exists.
import type { Ports } from '../../platform/ports.ts';

export const automationsPort: Ports['automations'] = {
  exists: async () => false,
  enter: async () => 0,
  stop: async () => false,
};
