/** The server's bundle folder of `npm start` (apps/server/dist). */
export declare const DIST: string;
/** Bundles the server's entry points into `outdir` (default DIST); answers main.mjs's path. */
export declare function buildServer(outdir?: string): Promise<string>;
