package dev.mirrorv3.chain.envelope;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Refuses keys and values that do not fit {@code keys.type}/{@code values.type}: strict UTF-8 for
 * {@code utf8} and {@code json}, and one complete JSON text for {@code json}. Not thread-safe: make one
 * per encode call (it reuses its decode buffer).
 */
final class ValueTypeGuard {
    /** Validation only streams tokens, so the size limits meant for tree building are lifted. */
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .maxNestingDepth(Integer.MAX_VALUE)
                    .maxDocumentLength(-1)
                    .build())
            .build();

    private final ValueType keysType;
    private final ValueType valuesType;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private CharBuffer chars = CharBuffer.allocate(256);

    ValueTypeGuard(ValueType keysType, ValueType valuesType) {
        this.keysType = keysType;
        this.valuesType = valuesType;
    }

    /** @throws ValueTypeException naming the record and what to change */
    void check(BackupRecord r) {
        check(r, "key", "keys.type", keysType, r.key());
        check(r, "value", "values.type", valuesType, r.value());
    }

    private void check(BackupRecord r, String which, String setting, ValueType type, byte[] data) {
        if (data == null || type == ValueType.BYTES) {
            return;
        }
        if (!decodeUtf8(data)) {
            throw new ValueTypeException(where(r) + which + " is not valid UTF-8, as " + setting + "=" + type.configValue()
                    + " requires; set " + setting + "=bytes to back up arbitrary bytes");
        }
        if (type == ValueType.JSON) {
            String problem = jsonProblem();
            if (problem != null) {
                throw new ValueTypeException(where(r) + which + " is not valid JSON (" + problem + "), as " + setting
                        + "=json requires; set " + setting + "=utf8 to back up any text, or " + setting
                        + "=bytes for arbitrary bytes");
            }
        }
    }

    private static String where(BackupRecord r) {
        return "topic " + r.topic() + " partition " + r.partition() + " offset " + Long.toUnsignedString(r.offset()) + ": ";
    }

    /** Decodes into {@link #chars} (flipped), reporting any malformed or overlong sequence. */
    private boolean decodeUtf8(byte[] data) {
        if (chars.capacity() < data.length) {
            chars = CharBuffer.allocate(Math.max(data.length, chars.capacity() * 2));
        }
        chars.clear();
        utf8.reset();
        ByteBuffer in = ByteBuffer.wrap(data);
        CoderResult result = utf8.decode(in, chars, true);
        if (result.isError()) {
            return false;
        }
        if (utf8.flush(chars).isError()) {
            return false;
        }
        chars.flip();
        return true;
    }

    /** Parses {@link #chars} as exactly one JSON value; null if it is one. */
    private String jsonProblem() {
        try (JsonParser p = JSON.createParser(chars.array(), chars.arrayOffset(), chars.limit())) {
            if (p.nextToken() == null) {
                return "empty";
            }
            p.skipChildren();
            if (p.nextToken() != null) {
                return "more than one JSON value";
            }
            return null;
        } catch (JsonProcessingException e) {
            return e.getOriginalMessage();
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
