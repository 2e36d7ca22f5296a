package dev.mirrorv3.connect.transforms;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Checks that a record's key ({@code ValidateFormat$Key}) or value ({@code ValidateFormat$Value}) is valid UTF-8 or
 * exactly one JSON value, and passes the record on unchanged. A misfit raises a {@link DataException} naming the
 * topic, partition, offset and the reason (never the content), so Connect's {@code errors.tolerance=all} and a
 * dead letter queue route bad records aside; without them the task fails with that message.
 */
public abstract class ValidateFormat<R extends ConnectRecord<R>> extends MirrorTransformation<R> {
    public static final String OVERVIEW_DOC = """
            Checks that the record's key or value (bytes or a string) is valid UTF-8 ('utf8') or exactly one JSON value \
            ('json') and passes the record on unchanged. A misfit raises a DataException naming topic, partition, offset \
            and the reason, which errors.tolerance=all with a dead letter queue routes aside. Null (a tombstone) passes. \
            Use ValidateFormat$Key or ValidateFormat$Value.""";

    public static final String FORMAT = "format";
    static final String FORMAT_DOC = """
            What the bytes must be: 'utf8' (valid UTF-8) or 'json' (UTF-8 JSON that parses as exactly one value: an \
            object, array, string, number, true, false or null).""";
    public static final String FORMAT_UTF8 = "utf8";
    public static final String FORMAT_JSON = "json";
    private static final String GROUP = "ValidateFormat";

    public static final ConfigDef CONFIG_DEF = new ConfigDef()
            .define(FORMAT, ConfigDef.Type.STRING, ConfigDef.NO_DEFAULT_VALUE,
                    ConfigDef.ValidString.in(FORMAT_UTF8, FORMAT_JSON), ConfigDef.Importance.HIGH, FORMAT_DOC,
                    GROUP, 1, ConfigDef.Width.SHORT, "Format");

    private static final JsonFactory JSON = new JsonFactory();

    private final Part part;
    private boolean json;

    /** The part of a record checked: how the messages name it, and how it is read. */
    private record Part(String name, Function<ConnectRecord<?>, Object> read) {
    }

    ValidateFormat(Part part) {
        super(CONFIG_DEF);
        this.part = part;
    }

    @Override
    protected void configure(AbstractConfig config) {
        json = FORMAT_JSON.equals(config.getString(FORMAT));
    }

    @Override
    public R apply(R record) {
        Object data = part.read().apply(record);
        if (data == null) {
            return record;
        }
        String reason;
        if (data instanceof byte[] bytes) {
            reason = json ? jsonProblem(bytes) : utf8Problem(bytes);
        } else if (data instanceof ByteBuffer buffer) {
            byte[] bytes = Utils.toArray(buffer.duplicate());
            reason = json ? jsonProblem(bytes) : utf8Problem(bytes);
        } else if (data instanceof String s) {
            reason = json ? jsonProblem(s.getBytes(StandardCharsets.UTF_8)) : null;
        } else {
            reason = "is a " + data.getClass().getSimpleName() + ", not bytes or a string (use ByteArrayConverter or StringConverter)";
        }
        if (reason != null) {
            throw new DataException(String.format("record at %s: %s %s", position(record), part.name(), reason));
        }
        return record;
    }

    /** "topic t partition p offset o", from the original coordinates where Connect has them. */
    static String position(ConnectRecord<?> record) {
        if (record instanceof SinkRecord sr) {
            return "topic " + sr.originalTopic() + " partition " + sr.originalKafkaPartition() + " offset " + sr.originalKafkaOffset();
        }
        return "topic " + record.topic() + " partition " + record.kafkaPartition() + " (source record, no offset yet)";
    }

    /** Null when the bytes are valid UTF-8, else where they are not. */
    static String utf8Problem(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CoderResult result = decoder.decode(in, CharBuffer.allocate(bytes.length), true);
        if (result.isError()) {
            return "is not valid UTF-8 (invalid byte sequence at byte " + in.position() + " of " + bytes.length + ")";
        }
        return null;
    }

    /** Null when the bytes are exactly one JSON value, else why not (position, never content). */
    static String jsonProblem(byte[] bytes) {
        String utf8 = utf8Problem(bytes);
        if (utf8 != null) {
            return utf8;
        }
        try (JsonParser parser = JSON.createParser(bytes)) {
            if (parser.nextToken() == null) {
                return "is not JSON (empty)";
            }
            parser.skipChildren();
            JsonToken extra = parser.nextToken();
            if (extra != null) {
                return "is not one JSON value (more follows at byte " + parser.currentTokenLocation().getByteOffset() + ")";
            }
            return null;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            return "is not JSON (" + e.getOriginalMessage() + (at == null ? "" : " at byte " + at.getByteOffset()) + ")";
        } catch (IOException e) {
            return "is not JSON (" + e.getMessage() + ")";
        }
    }

    /** Validates the record's key. */
    public static final class Key<R extends ConnectRecord<R>> extends ValidateFormat<R> {
        public Key() {
            super(new Part("key", ConnectRecord::key));
        }
    }

    /** Validates the record's value. */
    public static final class Value<R extends ConnectRecord<R>> extends ValidateFormat<R> {
        public Value() {
            super(new Part("value", ConnectRecord::value));
        }
    }
}
