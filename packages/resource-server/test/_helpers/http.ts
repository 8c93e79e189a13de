/** The shared JSON fetch helper, and a bearer header. */
export { fetchJson as request, type JsonResponse } from '@heroes/test-kit';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
