package dev.mirrorv3.chain.store.s3;

import dev.mirrorv3.chain.store.ObjectLockedException;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectLockRetention;

/**
 * {@link S3Store}'s deletes, signed with the prune identity: one GetObjectRetention, then one DeleteObject of the key
 * (no version id) unless the object is under an Object Lock retention that has not ended, which is reported as
 * {@link ObjectLockedException} and left alone. The store asks rather than relying on a refusal: a DeleteObject without
 * a version id is not refused on a bucket with Object Lock (S3 adds a delete marker and keeps the locked version), and
 * stores that model Object Lock only in part do not refuse at all. A delete S3 refuses for a lock all the same (a
 * retention set between the two requests, a store that refuses) is reported the same way.
 *
 * <p>On a versioned bucket (every bucket with Object Lock is one) the delete adds a delete marker: the object leaves
 * the listing, its data stays as a noncurrent version until the bucket's lifecycle rule for noncurrent versions
 * removes it. The prune identity needs s3:GetObjectRetention and s3:DeleteObject, never s3:DeleteObjectVersion.
 */
record RetentionCheckedDelete(S3Settings settings, S3Client pruner, Clock clock) {

    /** Removes the key; a key already gone is no error (a second run after an interrupted one). */
    void delete(String key, String where) {
        Optional<ObjectLockedException> locked = retentionInForce(key, where);
        if (locked.isPresent()) {
            throw locked.get();
        }
        try {
            pruner.deleteObject(r -> r.bucket(settings.bucket()).key(key));
        } catch (NoSuchKeyException gone) {
            // S3 answers 204 for a key that is not there; a store that answers 404 means the same
        } catch (AwsServiceException e) {
            if (e.statusCode() == 403 && saysObjectLock(e)) {
                throw new ObjectLockedException(where, "refused by the store: " + message(e), Optional.empty());
            }
            throw S3Errors.translate(e, "DeleteObject " + where, identity(), settings.bucket());
        } catch (SdkException e) {
            throw S3Errors.translate(e, "DeleteObject " + where, identity(), settings.bucket());
        }
    }

    /** The object's retention, if one is in force now; empty for an object without one, or gone. */
    Optional<ObjectLockedException> retentionInForce(String key, String where) {
        ObjectLockRetention retention;
        try {
            retention = pruner.getObjectRetention(r -> r.bucket(settings.bucket()).key(key)).retention();
        } catch (NoSuchKeyException gone) {
            return Optional.empty();
        } catch (AwsServiceException e) {
            if (noRetention(e)) {
                return Optional.empty();
            }
            throw S3Errors.translate(e, "GetObjectRetention " + where, identity(), settings.bucket());
        } catch (SdkException e) {
            throw S3Errors.translate(e, "GetObjectRetention " + where, identity(), settings.bucket());
        }
        Instant until = retention == null ? null : retention.retainUntilDate();
        if (until == null || !until.isAfter(clock.instant())) {
            return Optional.empty();
        }
        return Optional.of(new ObjectLockedException(where, String.valueOf(retention.modeAsString()), Optional.of(until)));
    }

    /**
     * The answers that mean "no retention on this object": it has none (404 NoSuchObjectLockConfiguration, or another
     * 404 that is not about the bucket), the bucket has no Object Lock (400 InvalidRequest naming it), the store has no
     * Object Lock at all (501), or the key's current version is a delete marker (405).
     */
    static boolean noRetention(AwsServiceException e) {
        String code = e.awsErrorDetails() == null ? "" : String.valueOf(e.awsErrorDetails().errorCode());
        return switch (e.statusCode()) {
            case 404 -> !"NoSuchBucket".equals(code);
            case 400 -> saysObjectLock(e);
            case 405, 501 -> true;
            default -> "NotImplemented".equals(code);
        };
    }

    static boolean saysObjectLock(AwsServiceException e) {
        String said = message(e).toLowerCase(Locale.ROOT).replace(" ", "");
        return said.contains("objectlock") || said.contains("worm") || said.contains("retention");
    }

    private static String message(AwsServiceException e) {
        return String.valueOf(e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage());
    }

    private S3Identity identity() {
        return settings.prune().orElseThrow();
    }
}
