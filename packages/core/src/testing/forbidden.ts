// Test support, not exported: the outgoing-text rule as the tests state it, apart from the sanitiser
// that enforces it (so a slip in the sanitiser's own pattern is not copied into what checks it). One
// statement for the unit tests, the boundary property and the fuzzers.

/** Any control, separator, format or bidi character other than the line feed. */
export const FORBIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}\u{E0000}-\u{E007F}]/u;
