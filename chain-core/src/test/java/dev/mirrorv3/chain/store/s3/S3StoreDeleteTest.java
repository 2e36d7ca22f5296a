package dev.mirrorv3.chain.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.store.ObjectLockedException;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.StoreFactory;
import dev.mirrorv3.chain.testkit.LeastPrivilegeS3Bucket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The store's delete on S3 ({@code mirror-v3 prune}'s) against S3Proxy with least-privilege identities: only the prune
 * identity deletes; a store opened for prune signs everything with it; without it, deleting is refused naming the
 * settings. S3Proxy has no Object Lock (GetObjectRetention answers 501: no retention); objects under a retention are
 * S3ObjectLockIT's, on S3Mock.
 */
class S3StoreDeleteTest {
    private static final String BUCKET = "pruned";
    private static final String NAME = "00000000000000000000-00000000000000000009.parquet";

    @RegisterExtension
    static final LeastPrivilegeS3Bucket S3 = new LeastPrivilegeS3Bucket(BUCKET);

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aStoreOpenedForPruneListsReadsCreatesAndDeletesAsThePruneIdentityOnly() {
        Map<String, String> settings = S3.settings("open-for-prune");
        try (Store writer = StoreFactory.open(settings, "orders")) {
            writer.create(0, NAME, bytes("old"));
            writer.create(0, "00000000000000000010-00000000000000000019.parquet", bytes("kept"));
            writer.createBeside("_meta/topic", "00000001796090280333.json", bytes("{}"));
        }
        // Only the prune identity is given: the write and read identities' secrets are wrong, so any request they
        // signed would be refused.
        settings.put(StoreFactory.S3_WRITE_SECRET_ACCESS_KEY, "wrong");
        settings.put(StoreFactory.S3_READ_SECRET_ACCESS_KEY, "wrong");
        try (Store prune = StoreFactory.openForPrune(settings, "orders")) {
            assertThat(prune.list(0)).hasSize(2);
            assertThat(prune.read(0, NAME)).isEqualTo(bytes("old"));
            prune.createBeside("_meta/topic", "00000001796090289999.json", bytes("{\"start\":10}"));
            prune.delete(0, NAME);
            prune.deleteBeside("_meta/topic", "00000001796090280333.json");
            prune.delete(0, NAME); // already gone: a second run after an interrupted one
            assertThat(prune.list(0)).containsExactly("00000000000000000010-00000000000000000019.parquet");
            assertThat(prune.listBeside("_meta/topic")).containsExactly("00000001796090289999.json");
        }
        assertThat(S3.server().calls("removeBlob")).as("the deletes reached the server").isGreaterThanOrEqualTo(2);
    }

    @Test
    void withoutThePruneIdentityNothingDeletesAndTheSettingsAreNamed() {
        Map<String, String> settings = S3.settings("no-prune");
        settings.remove(StoreFactory.S3_PRUNE_ACCESS_KEY_ID);
        settings.remove(StoreFactory.S3_PRUNE_SECRET_ACCESS_KEY);
        try (Store store = StoreFactory.open(settings, "orders")) {
            store.create(0, NAME, bytes("kept"));
            assertThatThrownBy(() -> store.delete(0, NAME)).isInstanceOf(StoreException.class)
                    .hasMessageContaining("deleting from s3://pruned/no-prune needs the prune identity: set s3.prune.access.key.id"
                            + " and s3.prune.secret.access.key");
            assertThat(store.list(0)).containsExactly(NAME);
        }
        assertThatThrownBy(() -> StoreFactory.openForPrune(settings, "orders")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s3.prune.access.key.id and s3.prune.secret.access.key are required to delete from"
                        + " s3://pruned/no-prune");
    }

    /** The write or the read identity given as the prune identity: S3 refuses the delete, naming what the policy lacks. */
    @Test
    void theWriteAndReadIdentitiesCannotDelete() {
        for (String identity : new String[] {"writer", "reader"}) {
            Map<String, String> settings = S3.settings("denied-" + identity);
            try (Store writer = StoreFactory.open(settings, "orders")) {
                writer.create(0, NAME, bytes("kept"));
            }
            settings.put(StoreFactory.S3_PRUNE_ACCESS_KEY_ID, identity);
            settings.put(StoreFactory.S3_PRUNE_SECRET_ACCESS_KEY, identity + "-secret-value");
            try (Store store = StoreFactory.open(settings, "orders")) {
                assertThatThrownBy(() -> store.delete(0, NAME)).isInstanceOf(S3AccessException.class)
                        .hasMessageContaining("S3 denied DeleteObject s3://pruned/denied-" + identity + "/orders/0/" + NAME
                                + " to the prune identity").hasMessageContaining("s3:DeleteObject")
                        .hasMessageNotContaining(identity + "-secret-value");
                assertThat(store.list(0)).containsExactly(NAME);
            }
        }
    }

    /** A store that refuses the delete itself for a lock (S3 for a locked version, MinIO) is reported as locked too. */
    @Test
    void aDeleteTheStoreRefusesForALockIsReportedAsLocked() {
        Map<String, String> settings = S3.settings("refused");
        try (Store store = StoreFactory.open(settings, "orders")) {
            store.create(0, NAME, bytes("kept"));
            S3.server().refuseDeletesAsLocked(true);
            assertThatThrownBy(() -> store.delete(0, NAME)).isInstanceOfSatisfying(ObjectLockedException.class, e -> {
                assertThat(e.location()).isEqualTo("s3://pruned/refused/orders/0/" + NAME);
                assertThat(e.retainUntil()).isEmpty();
            }).hasMessageContaining("Access Denied because object protected by object lock");
            S3.server().refuseDeletesAsLocked(false);
            assertThat(store.list(0)).containsExactly(NAME);
        } finally {
            S3.server().refuseDeletesAsLocked(false);
        }
    }
}
