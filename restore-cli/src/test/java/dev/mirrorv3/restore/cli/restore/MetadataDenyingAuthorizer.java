package dev.mirrorv3.restore.cli.restore;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.common.Endpoint;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.server.authorizer.AclCreateResult;
import org.apache.kafka.server.authorizer.AclDeleteResult;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;
import org.apache.kafka.server.authorizer.Authorizer;
import org.apache.kafka.server.authorizer.AuthorizerServerInfo;

/**
 * A broker authorizer (authorizer.class.name) that allows everything, except that restore's admin client
 * (client id mirror-v3-restore-admin) may not read the metadata of topics whose name starts with {@link #PREFIX}: a
 * principal that may create a topic but not describe it, so the wait for a created topic's metadata fails with
 * TOPIC_AUTHORIZATION_FAILED. Deleting the topic stays allowed. It counts the client's CreateTopics requests and records
 * the topics whose metadata it refused, so a test can show that its fault landed.
 */
public final class MetadataDenyingAuthorizer implements Authorizer {
    static final String PREFIX = "no-metadata-";
    static final String CLIENT = "mirror-v3-restore-admin";
    /** CreateTopics requests of restore's client the broker authorized. */
    static final AtomicInteger CREATES = new AtomicInteger();
    static final Set<String> REFUSED = ConcurrentHashMap.newKeySet();

    @Override
    public void configure(Map<String, ?> configs) {
    }

    @Override
    public Map<Endpoint, ? extends CompletionStage<Void>> start(AuthorizerServerInfo serverInfo) {
        return serverInfo.endpoints().stream().collect(Collectors.toMap(Function.identity(), e -> CompletableFuture.completedFuture(null)));
    }

    @Override
    public List<AuthorizationResult> authorize(AuthorizableRequestContext context, List<Action> actions) {
        return actions.stream().map(a -> authorize(context, a)).toList();
    }

    private static AuthorizationResult authorize(AuthorizableRequestContext context, Action a) {
        if (!CLIENT.equals(context.clientId())) {
            return AuthorizationResult.ALLOWED;
        }
        int api = context.requestType();
        if (api == ApiKeys.CREATE_TOPICS.id && a.operation() == AclOperation.CREATE) {
            CREATES.incrementAndGet(); // on the cluster: a topic's own CREATE is not asked once the cluster's is allowed
        }
        boolean ours = a.resourcePattern().resourceType() == ResourceType.TOPIC && a.resourcePattern().name().startsWith(PREFIX);
        if (ours && a.operation() == AclOperation.DESCRIBE && (api == ApiKeys.METADATA.id || api == ApiKeys.DESCRIBE_TOPIC_PARTITIONS.id)) {
            REFUSED.add(a.resourcePattern().name());
            return AuthorizationResult.DENIED;
        }
        return AuthorizationResult.ALLOWED;
    }

    @Override
    public List<? extends CompletionStage<AclCreateResult>> createAcls(AuthorizableRequestContext context, List<AclBinding> bindings) {
        throw new UnsupportedOperationException("no ACLs here");
    }

    @Override
    public List<? extends CompletionStage<AclDeleteResult>> deleteAcls(AuthorizableRequestContext context, List<AclBindingFilter> filters) {
        throw new UnsupportedOperationException("no ACLs here");
    }

    @Override
    public Iterable<AclBinding> acls(AclBindingFilter filter) {
        return List.of();
    }

    @Override
    public void close() {
    }
}
