// Where the built app lives (`npm run build -w @heroes/web-app`, run by `npm install` and before the tests).
import { fileURLToPath } from 'node:url';

export const webAppDist = fileURLToPath(new URL('./dist/', import.meta.url));
