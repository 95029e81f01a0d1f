import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * A Vitest sequencer that starts the named files first, in the order given, then the rest in Vitest's own
 * order. Vitest orders by the last run's durations when this checkout has them, and by file size when it
 * has not (a clean clone, as in CI): there a long file of average size can start last, while the other
 * worker has nothing left to do. The names are the files measured longest (ADR 112); a name that matches
 * no file is ignored, and files of different projects are never reordered across projects.
 */
export function slowFirst(files: string[]) {
  return class SlowFirst extends BaseSequencer {
    override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(specs);
      const rank = (s: TestSpecification) => {
        const i = files.findIndex((f) => s.moduleId.endsWith(`/${f}`));
        return i === -1 ? files.length : i;
      };
      const at = new Map(sorted.map((s, i) => [s, i]));
      // Vitest's order keeps each project's files together: the first file of a project marks its place.
      const projectAt = new Map<string, number>();
      for (const [s, i] of at) if (!projectAt.has(s.project.name)) projectAt.set(s.project.name, i);
      const key = (s: TestSpecification) => projectAt.get(s.project.name) ?? 0;
      return [...sorted].sort(
        (a, b) => key(a) - key(b) || rank(a) - rank(b) || (at.get(a) ?? 0) - (at.get(b) ?? 0),
      );
    }
  };
}
