package dev.mirrorv3.chain.store.s3;

import dev.mirrorv3.chain.store.StoreException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectLockConfiguration;
import software.amazon.awssdk.services.s3.model.ObjectLockEnabled;

/**
 * Whether a bucket has S3 Object Lock enabled: one GetObjectLockConfiguration signed with the read identity, which
 * needs {@code s3:GetBucketObjectLockConfiguration} on the bucket. A retention per object
 * ({@code s3.object.lock.mode}) needs it: S3 refuses every PutObject asking for one in a bucket without Object Lock.
 */
final class BucketObjectLock {
    static final String PERMISSION = "s3:GetBucketObjectLockConfiguration";

    private BucketObjectLock() {
    }

    /** @throws StoreException saying what is missing: Object Lock on the bucket, or the read identity's permission */
    static void requireEnabled(S3Settings settings, S3Client reader) {
        String operation = "GetObjectLockConfiguration s3://" + settings.bucket();
        ObjectLockConfiguration config;
        try {
            config = reader.getObjectLockConfiguration(r -> r.bucket(settings.bucket())).objectLockConfiguration();
        } catch (AwsServiceException e) {
            if (e.statusCode() == 403) {
                throw new S3AccessException(S3AccessException.Problem.DENIED, settings.read().role(), "S3 denied " + operation
                        + " to " + settings.read() + ": the bucket policy must allow it " + PERMISSION + " on the bucket"
                        + " to check that Object Lock is enabled", e);
            }
            if (notEnabled(e)) {
                throw notEnabled(settings, " (" + operation + " answered HTTP " + e.statusCode() + ")");
            }
            throw S3Errors.translate(e, operation, settings.read(), settings.bucket());
        } catch (SdkException e) {
            throw S3Errors.translate(e, operation, settings.read(), settings.bucket());
        }
        if (config == null || config.objectLockEnabled() != ObjectLockEnabled.ENABLED) {
            throw notEnabled(settings, "");
        }
    }

    /** No configuration (404 ObjectLockConfigurationNotFoundError), a 400 naming Object Lock, or no Object Lock at all (501). */
    private static boolean notEnabled(AwsServiceException e) {
        return e.statusCode() == 404 && !"NoSuchBucket".equals(e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode())
                || e.statusCode() == 501 || e.statusCode() == 400 && RetentionCheckedDelete.saysObjectLock(e);
    }

    private static StoreException notEnabled(S3Settings settings, String answer) {
        return new StoreException("bucket " + settings.bucket() + " does not have S3 Object Lock enabled" + answer
                + ": a retention per object (s3.object.lock.mode, s3.object.lock.retain.days) needs a bucket created with"
                + " Object Lock (or enabled on it); enable it, or remove both settings");
    }
}
