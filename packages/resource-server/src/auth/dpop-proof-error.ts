/** A DPoP proof that fails a rule of RFC 9449 section 4.3: the guard's 401 invalid_dpop_proof. */
export class DpopProofError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DpopProofError';
  }
}
