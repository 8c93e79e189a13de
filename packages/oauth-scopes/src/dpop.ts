/**
 * DPoP (RFC 9449) values both servers share: the proof signature
 * algorithms accepted (advertised as `dpop_signing_alg_values_supported`
 * and in the edge's `algs` challenge parameter). Asymmetric only (section
 * 4.3: no `none`, no MAC); each is one the `jose` library verifies.
 */
export const DPOP_SIGNING_ALGS: readonly string[] = Object.freeze(['ES256', 'EdDSA', 'Ed25519', 'PS256', 'RS256']);

/** A thumbprint (RFC 7638, SHA-256, base64url): what `cnf.jkt` and `dpop_jkt` carry. */
export const JKT_SYNTAX = /^[A-Za-z0-9_-]{43}$/;
