/**
 * The JWS algorithms scopegate can verify and `auth.algorithm` may name: one list for the config
 * schema and the key set. `none` is never among them.
 */
export const JWS_ALGORITHMS = [
  'HS256',
  'HS384',
  'HS512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** One of {@link JWS_ALGORITHMS}. */
export type JwsAlgorithm = (typeof JWS_ALGORITHMS)[number];
