/** Absolute path of the built app (index.html and assets/), with a trailing slash. */
export declare const webAppDist: string;
