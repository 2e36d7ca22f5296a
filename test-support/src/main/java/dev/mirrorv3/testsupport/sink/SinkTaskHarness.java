package dev.mirrorv3.testsupport.sink;

import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.RebalancingSinkTaskContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A sink task driven by hand in a unit test, as Connect's worker would: a real broker per test class (the source's
 * admin, and the Kafka sink's destination), the task started on a {@link RebalancingSinkTaskContext}, and both stopped
 * after each test. A subclass creates its topics in its own {@code @BeforeAll} (run after the broker starts).
 */
public abstract class SinkTaskHarness<T extends SinkTask> {
    @RegisterExtension
    protected static final KafkaTestBroker broker = KafkaTestBroker.perClass();

    protected RebalancingSinkTaskContext context;
    protected T task;

    @AfterEach
    void stopTask() {
        if (task != null) {
            task.stop();
        }
        if (context != null) {
            context.close();
        }
    }

    /** Starts {@code started} with {@code config} on a new context; the harness stops both after the test. */
    protected final T start(T started, Map<String, String> config) {
        context = new RebalancingSinkTaskContext(config);
        task = started;
        task.initialize(context);
        task.start(config);
        return started;
    }

    /** {@code n} records of {@code tp} from offset {@code from}, each value one byte: its offset's low byte. */
    protected static List<SinkRecord> records(TopicPartition tp, long from, int n) {
        return records(tp, from, n, 1);
    }

    /** {@code n} records of {@code valueBytes} value bytes each (their payload bytes for buffer.max.bytes). */
    protected static List<SinkRecord> records(TopicPartition tp, long from, int n, int valueBytes) {
        List<SinkRecord> out = new ArrayList<>();
        for (long o = from; o < from + n; o++) {
            byte[] value = new byte[valueBytes];
            Arrays.fill(value, (byte) o);
            out.add(new SinkRecord(tp.topic(), tp.partition(), Schema.OPTIONAL_BYTES_SCHEMA, null, Schema.OPTIONAL_BYTES_SCHEMA,
                    value, o));
        }
        return out;
    }
}
