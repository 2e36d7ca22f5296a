/**
 * An object's bytes as an encoder leaves them: in chunks that are reused for a later object once the commit holding them
 * is durable ({@link dev.mirrorv3.chain.bytes.ObjectBytes}), hashed, compared and written chunk by chunk, never joined
 * into one array on the way to the store (docs/blob-sink.md, "Encoding memory").
 */
package dev.mirrorv3.chain.bytes;
