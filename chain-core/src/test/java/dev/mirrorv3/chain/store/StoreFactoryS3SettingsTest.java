package dev.mirrorv3.chain.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.store.s3.NewObjectRetention;
import dev.mirrorv3.chain.store.s3.S3Settings;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;

/** The S3 settings' third identity and Object Lock retention, as StoreFactory reads them from a connector's settings. */
class StoreFactoryS3SettingsTest {

    private static Map<String, String> settings(String... kv) {
        Map<String, String> s = new HashMap<>(Map.of(StoreFactory.S3_BUCKET, "b", StoreFactory.S3_REGION, "eu-central-1",
                StoreFactory.S3_WRITE_ACCESS_KEY_ID, "w", StoreFactory.S3_WRITE_SECRET_ACCESS_KEY, "ws",
                StoreFactory.S3_READ_ACCESS_KEY_ID, "r", StoreFactory.S3_READ_SECRET_ACCESS_KEY, "rs"));
        for (int i = 0; i < kv.length; i += 2) {
            s.put(kv[i], kv[i + 1]);
        }
        return s;
    }

    @Test
    void neitherAPruneIdentityNorARetentionUnlessSet() {
        S3Settings s3 = StoreFactory.s3Settings(settings());
        assertThat(s3.prune()).isEmpty();
        assertThat(s3.objectLock()).isEmpty();
        assertThatThrownBy(s3::pruneOnly).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s3.prune.access.key.id and s3.prune.secret.access.key are required to delete from s3://b");
    }

    @Test
    void thePruneIdentitySignsEverythingOfAStoreOpenedForPrune() {
        S3Settings s3 = StoreFactory.s3Settings(settings(StoreFactory.S3_PRUNE_ACCESS_KEY_ID, " p ",
                StoreFactory.S3_PRUNE_SECRET_ACCESS_KEY, "ps"));
        assertThat(s3.prune()).hasValueSatisfying(p -> assertThat(p.role()).isEqualTo("prune"));
        assertThat(s3.prune().orElseThrow().toString()).isEqualTo("the prune identity").doesNotContain("ps");
        S3Settings prune = s3.pruneOnly();
        assertThat(prune.write()).isSameAs(s3.prune().orElseThrow());
        assertThat(prune.read()).isSameAs(s3.prune().orElseThrow());
    }

    @Test
    void theRetentionIsTheModeInAnyCaseAndDaysFromThePutsOwnTime() {
        S3Settings s3 = StoreFactory.s3Settings(settings(StoreFactory.S3_OBJECT_LOCK_MODE, "Compliance",
                StoreFactory.S3_OBJECT_LOCK_RETAIN_DAYS, "30"));
        NewObjectRetention retention = s3.objectLock().orElseThrow();
        assertThat(retention.mode()).isEqualTo(ObjectLockMode.COMPLIANCE);
        assertThat(retention.retainUntil(Instant.parse("2026-01-01T00:00:00Z"))).isEqualTo(Instant.parse("2026-01-31T00:00:00Z"));
        assertThat(s3.withCallTimeout(java.time.Duration.ofSeconds(5)).objectLock()).as("kept by every copy").contains(retention);

        assertThatThrownBy(() -> StoreFactory.s3Settings(settings(StoreFactory.S3_OBJECT_LOCK_MODE, "governance")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("s3.object.lock.retain.days must be a number of days (at least 1) with s3.object.lock.mode (found '')");
        assertThatThrownBy(() -> StoreFactory.s3Settings(settings(StoreFactory.S3_OBJECT_LOCK_MODE, "legal-hold",
                StoreFactory.S3_OBJECT_LOCK_RETAIN_DAYS, "3"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an Object Lock mode: 'legal-hold'");
        assertThatThrownBy(() -> StoreFactory.s3Settings(settings(StoreFactory.S3_OBJECT_LOCK_MODE, "governance",
                StoreFactory.S3_OBJECT_LOCK_RETAIN_DAYS, "0"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("use at least 1");
    }
}
