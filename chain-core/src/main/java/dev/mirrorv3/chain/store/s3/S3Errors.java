package dev.mirrorv3.chain.store.s3;

import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.TransientStoreException;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Turns the SDK's exceptions into the store's: {@link TransientStoreException} for what retrying may fix (no
 * connection, connection reset, timeouts, 5xx, throttling, 409 ConditionalRequestConflict), {@link S3AccessException}
 * or {@link StoreException} for the rest, such as a store that does not implement {@code If-None-Match} (501 is a
 * 5xx, but no retry will implement it). The task's {@code Failures} then sees only store exceptions.
 */
final class S3Errors {
    private static final Set<String> TRANSIENT_CODES = Set.of("SlowDown", "Throttling", "ThrottlingException",
            "RequestLimitExceeded", "TooManyRequests", "RequestThrottled", "RequestTimeout", "InternalError",
            "ServiceUnavailable", "ConditionalRequestConflict", "OperationAborted");
    private static final Set<String> CREDENTIAL_CODES = Set.of("InvalidAccessKeyId", "SignatureDoesNotMatch",
            "InvalidToken", "ExpiredToken", "AuthorizationHeaderMalformed", "InvalidSecurity");

    private S3Errors() {
    }

    /**
     * @param operation what was attempted, e.g. "PutObject s3://b/p/n/0/x.parquet"
     * @param identity  the identity the request was signed with
     */
    static StoreException translate(SdkException e, String operation, S3Identity identity, String bucket) {
        if (e instanceof AwsServiceException s) {
            int status = s.statusCode();
            String code = code(s);
            String said = said(s);
            if (status >= 500 || status == 429 || status == 408 || s.isThrottlingException() || TRANSIENT_CODES.contains(code)) {
                return new TransientStoreException("S3 could not " + operation + " for now" + said, e);
            }
            if (CREDENTIAL_CODES.contains(code)) {
                return new S3AccessException(S3AccessException.Problem.CREDENTIALS, identity.role(),
                        "S3 does not accept the credentials of "
                        + identity + " (s3." + identity.role() + ".access.key.id / s3." + identity.role() + ".secret.access.key) for "
                        + operation + said + ": check the access key id and secret of that identity", e);
            }
            if ("NoSuchBucket".equals(code)) {
                return new S3AccessException(S3AccessException.Problem.NO_BUCKET, identity.role(), "bucket " + bucket
                        + " does not exist (" + operation + " as " + identity + ")" + said
                        + ": check s3.bucket, s3.endpoint and s3.region", e);
            }
            if (status == 403) {
                return new S3AccessException(S3AccessException.Problem.DENIED, identity.role(), "S3 denied " + operation + " to "
                        + identity + said + ": the bucket policy must allow " + neededBy(identity) + " on " + bucket, e);
            }
            return new S3AccessException(S3AccessException.Problem.OTHER, identity.role(), "S3 refused " + operation + " as "
                    + identity + said + ": " + (s.awsErrorDetails() == null ? s.getMessage() : s.awsErrorDetails().errorMessage()), e);
        }
        if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException
                || (e instanceof SdkClientException && (hasIoCause(e) || e.retryable()))) {
            return new TransientStoreException("cannot reach S3 to " + operation + ": " + rootMessage(e), e);
        }
        return new StoreException("cannot " + operation + " as " + identity + ": " + rootMessage(e), e);
    }

    /**
     * A failed PutObject with {@code If-None-Match: *}: as {@link #translate}, except that a store refusing the header
     * itself (501 Not Implemented, or a 400 naming it) fails for good, naming what the store lacks.
     *
     * With an Object Lock retention asked for, a refusal of that (501, or a 400 naming Object Lock: a bucket without it)
     * names the Object Lock settings.
     *
     * @param store the store for messages: its endpoint (or AWS S3 and the region), never a credential
     * @param withRetention whether the PutObject asked for an Object Lock retention
     */
    static StoreException translateConditionalPut(SdkException e, String operation, S3Identity identity, String bucket, String store,
            boolean withRetention) {
        if (withRetention && e instanceof AwsServiceException s && (s.statusCode() == 501 || "NotImplemented".equals(code(s))
                || s.statusCode() == 400 && RetentionCheckedDelete.saysObjectLock(s))) {
            return new S3AccessException(S3AccessException.Problem.OTHER, identity.role(), store + " refused " + operation
                    + " with an Object Lock retention (s3.object.lock.mode, s3.object.lock.retain.days)" + said(s) + ": "
                    + message(s) + ". The bucket must have S3 Object Lock enabled, on a store that implements it and"
                    + " If-None-Match: * (mirror-v3 validate checks the bucket); enable it, or remove both settings", e);
        }
        if (e instanceof AwsServiceException s && refusesConditionalWrite(s)) {
            return new S3AccessException(S3AccessException.Problem.OTHER, identity.role(), store + " does not support conditional"
                    + " writes: it refused " + operation + " with If-None-Match: *" + said(s) + ". The sink commits every object"
                    + " that way so that it never overwrites one; point s3.endpoint at a store that answers 412 to an existing key"
                    + " (AWS S3 does; see docs/blob-sink.md on S3-compatible stores), or use destination.type=filesystem", e);
        }
        return translate(e, operation, identity, bucket);
    }

    private static boolean refusesConditionalWrite(AwsServiceException s) {
        if (s.statusCode() == 501 || "NotImplemented".equals(code(s))) {
            return true;
        }
        String message = message(s).toLowerCase(Locale.ROOT);
        return s.statusCode() == 400 && (message.contains("if-none-match") || message.contains("conditional"));
    }

    private static String message(AwsServiceException s) {
        return String.valueOf(s.awsErrorDetails() == null ? s.getMessage() : s.awsErrorDetails().errorMessage());
    }

    private static String code(AwsServiceException s) {
        return s.awsErrorDetails() == null || s.awsErrorDetails().errorCode() == null ? "" : s.awsErrorDetails().errorCode();
    }

    private static String said(AwsServiceException s) {
        String code = code(s);
        return " (HTTP " + s.statusCode() + (code.isEmpty() ? "" : " " + code)
                + (s.requestId() == null ? "" : ", request id " + s.requestId()) + ")";
    }

    private static String neededBy(S3Identity identity) {
        return switch (identity.role()) {
            case "write" -> "s3:PutObject (and s3:PutObjectRetention with s3.object.lock.mode)";
            case "prune" -> "s3:ListBucket, s3:GetObject, s3:GetObjectRetention, s3:DeleteObject and s3:PutObject";
            default -> "s3:ListBucket and s3:GetObject";
        };
    }

    private static boolean hasIoCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == t ? String.valueOf(t.getMessage()) : t.getMessage() + " (" + root + ")";
    }
}
