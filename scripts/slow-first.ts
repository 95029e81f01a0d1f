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
      const rankOf = new Map(
        sorted.map((s) => {
          const i = files.findIndex((f) => s.moduleId.endsWith(`/${f}`));
          return [s, i === -1 ? files.length : i];
        }),
      );
      // Vitest's order keeps each project's files together: the first file of a project marks its place.
      const projectAt = new Map<string, number>();
      sorted.forEach((s, i) => {
        if (!projectAt.has(s.project.name)) projectAt.set(s.project.name, i);
      });
      const key = (s: TestSpecification) => projectAt.get(s.project.name) ?? 0;
      // A stable sort: files of equal rank keep Vitest's order.
      return [...sorted].sort((a, b) => key(a) - key(b) || (rankOf.get(a) ?? 0) - (rankOf.get(b) ?? 0));
    }
  };
}
