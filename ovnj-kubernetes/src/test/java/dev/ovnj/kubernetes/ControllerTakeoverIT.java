package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.NAMESPACE;
import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static dev.ovnj.kubernetes.Kube.slice;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A controller restarted, and two replicas behind a Lease: addresses and rows stay, one replica writes. */
@EnableKubernetesMockClient(crud = true)
class ControllerTakeoverIT extends ControllerTestBase {

    @Test
    void aRestartedControllerKeepsAddressesAndRowsAndSweepsServicesDeletedMeanwhile() {
        Replica first = replica(settings(), b -> b);
        kube.resource(loadBalancer("web")).create();
        kube.resource(slice("web-a", "web", "10.1.0.10")).create();
        awaitVips("shop/web-tcp", "{\"" + FIRST_EIP + ":80\"=\"10.1.0.10:8080\"}");
        kube.resource(loadBalancer("api")).create();
        awaitVips("shop/api-tcp", "{\"" + SECOND_EIP + ":80\"=\"\"}");
        Await.until(WAIT, "both published", () -> ingress("web").equals(List.of(FIRST_EIP))
                && ingress("api").equals(List.of(SECOND_EIP)));
        String uuids = rowUuids();
        String claims = claims();
        first.close();

        // While no controller runs: web scales, and api is deleted with its finalizer taken off by hand.
        kube.resource(slice("web-a", "web", "10.1.0.10", "10.1.0.11")).update();
        editService("api", s -> {
            s.getMetadata().getFinalizers().clear();
            return s;
        });
        kube.services().inNamespace(NAMESPACE).withName("api").delete();
        Await.until(WAIT, "api gone", () -> service("api") == null);

        Replica second = replica(settings(), b -> b);
        awaitVips("shop/web-tcp", "{\"" + FIRST_EIP + ":80\"=\"10.1.0.10:8080,10.1.0.11:8080\"}");
        assertThat(second.controller().lastSweep().join()).isEqualTo(Set.of("shop/api"));
        Await.until(WAIT, "api's rows and claim gone", () -> !lbNames().contains("shop/api-tcp")
                && !claims().contains(SECOND_EIP));
        assertThat(claims()).isEqualTo("{ovnj.eip." + FIRST_EIP + "=\"shop/web\"}").isNotEqualTo(claims);
        assertThat(ingress("web")).isEqualTo(List.of(FIRST_EIP));
        // web's rows were updated in place, never recreated.
        assertThat(uuids).contains(rowUuid("shop/web-tcp")).contains(rowUuid("shop/web-udp"));
    }

    @Test
    void ofTwoReplicasOnlyTheLeaseHolderWritesAndTheOtherTakesOver() {
        // fabric8's mock server has no authorizer: answer JOSDK's check of its Lease permissions.
        mock.expect().post().withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
                .andReturn(201, new SelfSubjectRulesReviewBuilder().withNewStatus().withIncomplete(false)
                        .addNewResourceRule().withApiGroups("coordination.k8s.io").withResources("leases")
                        .withVerbs("create", "update", "get").endResourceRule().endStatus().build())
                .always();
        ControllerSettings leased = settings().withLease(NAMESPACE, "ovnj-test");
        Replica a = replica(leased, b -> b.identity("a").leaseTiming(Duration.ofSeconds(4), Duration.ofSeconds(3),
                Duration.ofMillis(500)));
        Replica b = replica(leased, r -> r.identity("b").leaseTiming(Duration.ofSeconds(4), Duration.ofSeconds(3),
                Duration.ofMillis(500)));
        Await.until(WAIT, "a leader", () -> a.controller().isLeader() || b.controller().isLeader());
        Replica leader = a.controller().isLeader() ? a : b;
        Replica standby = leader == a ? b : a;
        assertThat(standby.controller().isLeader()).isFalse();

        kube.resource(loadBalancer("web")).create();
        kube.resource(slice("web-a", "web", "10.1.0.10")).create();
        awaitVips("shop/web-tcp", "{\"" + FIRST_EIP + ":80\"=\"10.1.0.10:8080\"}");
        // The row is in the database a moment before the engine has counted its transaction.
        Await.until(WAIT, "the leader's engine counted its write", () -> leader.engine().metrics().transactions() > 0);
        assertThat(standby.engine().metrics().transactions()).isZero();
        String uuids = rowUuids();

        leader.close();
        Await.until(WAIT, "the standby leads", () -> standby.controller().isLeader());
        kube.resource(slice("web-a", "web", "10.1.0.10", "10.1.0.11")).update();
        awaitVips("shop/web-tcp", "{\"" + FIRST_EIP + ":80\"=\"10.1.0.10:8080,10.1.0.11:8080\"}");
        Await.until(WAIT, "the new leader's engine counted its write", () -> standby.engine().metrics().transactions() > 0);
        assertThat(rowUuids()).isEqualTo(uuids);
        assertThat(claims()).isEqualTo("{ovnj.eip." + FIRST_EIP + "=\"shop/web\"}");
    }

    String rowUuids() {
        return nbctl.run("--bare", "--columns=_uuid", "list", "Load_Balancer");
    }

    String rowUuid(String name) {
        return nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=\"" + name + "\"");
    }
}
