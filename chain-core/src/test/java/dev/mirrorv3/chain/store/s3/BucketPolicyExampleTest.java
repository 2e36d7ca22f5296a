package dev.mirrorv3.chain.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * examples/policies/s3-bucket-policy.json gives each identity what S3Store signs with it and nothing else: the write
 * identity creates objects (never over an existing one: the {@code s3:if-none-match} condition) and sets their
 * retention; the read identity lists, gets and reads the bucket's Object Lock configuration (validate); the prune
 * identity lists, gets, reads retentions, deletes and creates (never over an existing object). Only the prune identity
 * deletes; no identity removes a version or bypasses a governance retention. Read with a small evaluator of the
 * statements' Effect, Principal, Action and Resource (an explicit Deny wins).
 */
class BucketPolicyExampleTest {
    private static final Path POLICY = Path.of("..", "examples", "policies", "s3-bucket-policy.json");
    private static final String ACCOUNT = "arn:aws:iam::111122223333:user/";
    private static final String BUCKET = "arn:aws:s3:::acme-kafka-backups";
    private static final String OBJECTS = BUCKET + "/prod/*";
    private static final List<String> OBJECT_ACTIONS = List.of("s3:PutObject", "s3:PutObjectRetention", "s3:GetObject",
            "s3:GetObjectRetention", "s3:DeleteObject", "s3:DeleteObjectVersion", "s3:BypassGovernanceRetention");
    private static final List<String> BUCKET_ACTIONS = List.of("s3:ListBucket", "s3:GetBucketObjectLockConfiguration");

    @Test
    void eachIdentityMayDoWhatTheStoreSignsWithItAndOnlyThePruneIdentityDeletes() throws Exception {
        JsonNode statements = new ObjectMapper().readTree(POLICY.toFile()).get("Statement");
        assertThat(allowed(statements, "kafka-backup-writer")).containsExactlyInAnyOrder("s3:PutObject", "s3:PutObjectRetention");
        assertThat(allowed(statements, "kafka-backup-reader")).containsExactlyInAnyOrder("s3:ListBucket", "s3:GetObject",
                "s3:GetBucketObjectLockConfiguration");
        assertThat(allowed(statements, "kafka-backup-pruner")).containsExactlyInAnyOrder("s3:ListBucket", "s3:GetObject",
                "s3:GetObjectRetention", "s3:DeleteObject", "s3:PutObject");
        for (JsonNode s : statements) {
            if ("Allow".equals(s.get("Effect").asText()) && actions(s).contains("s3:PutObject")) {
                assertThat(s.path("Condition").path("Null").path("s3:if-none-match").asText())
                        .as("%s: PutObject only with If-None-Match (no overwrite)", s.get("Sid").asText()).isEqualTo("false");
            }
            if ("Allow".equals(s.get("Effect").asText()) && actions(s).contains("s3:ListBucket")) {
                assertThat(s.path("Condition").path("StringLike").path("s3:prefix").toString()).contains("prod/*");
            }
        }
    }

    /** The actions of this list an identity is allowed and not denied (on the objects under the prefix, or the bucket). */
    private static List<String> allowed(JsonNode statements, String user) {
        List<String> allowed = new ArrayList<>();
        for (String action : OBJECT_ACTIONS) {
            if (effect(statements, user, action, OBJECTS)) {
                allowed.add(action);
            }
        }
        for (String action : BUCKET_ACTIONS) {
            if (effect(statements, user, action, BUCKET)) {
                allowed.add(action);
            }
        }
        return allowed;
    }

    private static boolean effect(JsonNode statements, String user, String action, String resource) {
        boolean allow = false;
        for (JsonNode s : statements) {
            if (list(s.get("Principal").get("AWS")).contains(ACCOUNT + user) && actions(s).contains(action)
                    && list(s.get("Resource")).contains(resource)) {
                if ("Deny".equals(s.get("Effect").asText())) {
                    return false;
                }
                allow = true;
            }
        }
        return allow;
    }

    private static Set<String> actions(JsonNode statement) {
        return Set.copyOf(list(statement.get("Action")));
    }

    private static List<String> list(JsonNode node) {
        List<String> values = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(n -> values.add(n.asText()));
        } else {
            values.add(node.asText());
        }
        return values;
    }
}
