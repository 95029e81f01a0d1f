/** The server's bundle folder of `npm start` (apps/server/dist). */
export declare const DIST: string;
/** Bundles the server's entry points into `outdir` (default DIST); answers main.mjs's path. */
export declare function buildServer(outdir?: string): Promise<string>;
/** Bundles the server into a fresh folder `dist-test/<prefix>-*` for one test run; answers the folder. */
export declare function buildTestBundle(prefix: string): Promise<string>;
