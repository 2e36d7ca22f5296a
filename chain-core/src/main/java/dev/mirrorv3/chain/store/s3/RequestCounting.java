package dev.mirrorv3.chain.store.s3;

import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.chain.store.StoreRequests.Operation;
import dev.mirrorv3.chain.store.StoreRequests.Outcome;
import java.util.Map;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Counts every HTTP request the S3 clients send into {@link StoreRequests}: each attempt of a call (the SDK's retries
 * too) and each page of a listing, by the status it got ({@code 2xx} ok, {@code 4xx} refused, {@code 5xx} or no answer
 * failed). Prune's look at an object's retention and validate's at the bucket's Object Lock read metadata only: HEADs.
 */
final class RequestCounting implements ExecutionInterceptor {
    private static final Map<String, Operation> OPERATIONS = Map.of("PutObject", Operation.PUT, "GetObject", Operation.GET,
            "HeadObject", Operation.HEAD, "ListObjectsV2", Operation.LIST, "ListObjects", Operation.LIST, "DeleteObject",
            Operation.DELETE, "DeleteObjects", Operation.DELETE, "GetObjectRetention", Operation.HEAD,
            "GetObjectLockConfiguration", Operation.HEAD);
    /** Set while an attempt is on the wire without an answer yet. */
    private static final ExecutionAttribute<Boolean> SENT = new ExecutionAttribute<>("mirror-v3.request-sent");

    private final StoreRequests requests;

    RequestCounting(StoreRequests requests) {
        this.requests = requests;
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        unanswered(attributes); // the previous attempt got no answer (a timeout, a reset): the SDK is retrying it
        attributes.putAttribute(SENT, Boolean.TRUE);
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        attributes.putAttribute(SENT, Boolean.FALSE);
        int status = context.httpResponse().statusCode();
        record(attributes, status / 100 == 2 ? Outcome.OK : status / 100 == 4 ? Outcome.REFUSED : Outcome.FAILED);
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        unanswered(attributes);
    }

    private void unanswered(ExecutionAttributes attributes) {
        if (Boolean.TRUE.equals(attributes.getAttribute(SENT))) {
            attributes.putAttribute(SENT, Boolean.FALSE);
            record(attributes, Outcome.FAILED);
        }
    }

    /** Records the request; a call of another kind than the store makes (none today) is not counted. */
    private void record(ExecutionAttributes attributes, Outcome outcome) {
        Operation operation = OPERATIONS.get(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
        if (operation != null) {
            requests.record(operation, outcome);
        }
    }
}
