package dev.mirrorv3.chain.store.s3;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;

/**
 * The S3 Object Lock retention every new object gets ({@code s3.object.lock.mode}, {@code s3.object.lock.retain.days}):
 * each PutObject asks that the object be kept unchanged until its own time plus {@code days}. The bucket must have Object
 * Lock enabled; the write identity needs {@code s3:PutObjectRetention} besides {@code s3:PutObject}.
 *
 * @param mode GOVERNANCE (an identity allowed {@code s3:BypassGovernanceRetention} can still remove or shorten it) or
 *     COMPLIANCE (nobody can, not even the account's root user, until it ends)
 */
public record NewObjectRetention(ObjectLockMode mode, int days) {

    public NewObjectRetention {
        Objects.requireNonNull(mode);
        if (mode != ObjectLockMode.GOVERNANCE && mode != ObjectLockMode.COMPLIANCE) {
            throw new IllegalArgumentException("not an Object Lock mode: " + mode + " (use governance or compliance)");
        }
        if (days < 1) {
            throw new IllegalArgumentException("an Object Lock retention of " + days + " days: use at least 1");
        }
    }

    /** From the settings' words: {@code governance} or {@code compliance} (any case) and a number of days. */
    public static NewObjectRetention of(String mode, int days) {
        return switch (mode.trim().toLowerCase(Locale.ROOT)) {
            case "governance" -> new NewObjectRetention(ObjectLockMode.GOVERNANCE, days);
            case "compliance" -> new NewObjectRetention(ObjectLockMode.COMPLIANCE, days);
            default -> throw new IllegalArgumentException("not an Object Lock mode: '" + mode + "' (use governance or compliance)");
        };
    }

    /** The end of the retention of an object written at {@code now}. */
    public Instant retainUntil(Instant now) {
        return now.plus(Duration.ofDays(days));
    }
}
