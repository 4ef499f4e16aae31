package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.nb.ip.IpFamily;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** What the informers keep of a Service and a slice reads the same to the controller as the whole object. */
class CachedFormsTest {
    // accepts() reads only the settings.
    private final ServiceLoadBalancerReconciler reconciler = new ServiceLoadBalancerReconciler(null, null, null,
            ControllerSettings.of("gw", "gw-ext"), null, null, null, null);
    private final UnaryOperator<Service> keep = CachedForms.service(reconciler::accepts);

    @Test
    void aServiceTheControllerIgnoresIsKeptAsItsIdentityAndTheFieldsThatSaySo() {
        Service clusterIp = withManagedFields(new ServiceBuilder(Kube.loadBalancer("db")).editMetadata().withUid("u-1")
                .withResourceVersion("42").addToAnnotations("big", "x".repeat(1000)).endMetadata()
                .editSpec().withType("ClusterIP").endSpec().build());
        Service kept = keep.apply(clusterIp);
        assertThat(kept.getMetadata().getName()).isEqualTo("db");
        assertThat(kept.getMetadata().getNamespace()).isEqualTo(Kube.NAMESPACE);
        assertThat(kept.getMetadata().getUid()).isEqualTo("u-1");
        assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("42");
        assertThat(kept.getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(kept.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(kept.getSpec().getPorts()).isNullOrEmpty();
        assertThat(kept.getSpec().getType()).isEqualTo("ClusterIP");
        assertThat(reconciler.accepts(kept)).isFalse();

        Service otherClass = new ServiceBuilder(Kube.loadBalancer("lb")).editSpec().withLoadBalancerClass("other.dev/lb").endSpec().build();
        assertThat(reconciler.accepts(keep.apply(otherClass))).isFalse();
        assertThat(keep.apply(otherClass).getSpec().getPorts()).isNullOrEmpty();
    }

    @Test
    void aServiceTheControllerServesOrStillHoldsIsKeptWholeButForManagedFields() {
        Service served = withManagedFields(Kube.loadBalancer("web"));
        Service kept = keep.apply(served);
        assertThat(reconciler.accepts(kept)).isTrue();
        assertThat(kept.getSpec().getPorts()).hasSize(2);
        assertThat(kept.getMetadata().getManagedFields()).isNullOrEmpty();

        // Turned ClusterIP while it carries the finalizer: the controller still has to withdraw it.
        Service leaving = new ServiceBuilder(Kube.loadBalancer("old")).editMetadata().addToFinalizers(ControllerSettings.FINALIZER)
                .endMetadata().editSpec().withType("ClusterIP").endSpec().withNewStatus().withNewLoadBalancer().addNewIngress()
                .withIp("168.119.17.49").endIngress().endLoadBalancer().endStatus().build();
        assertThat(keep.apply(leaving)).isSameAs(leaving);
        assertThat(reconciler.accepts(keep.apply(leaving))).isTrue();
    }

    @Test
    void aSliceIsKeptWithWhatTheBackendsAreMadeOf() {
        EndpointSlice whole = new EndpointSliceBuilder(Kube.slice("web-a", "web", "10.1.0.10", "10.1.0.11")).editMetadata()
                .addToAnnotations("endpoints.kubernetes.io/last-change-trigger-time", "2026-11-27T10:00:00Z").endMetadata()
                .editFirstEndpoint().withNodeName("node-1").withNewTargetRef().withKind("Pod").withName("web-1").endTargetRef()
                .endEndpoint().build();
        EndpointSlice kept = CachedForms.slice(whole);
        assertThat(kept.getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(kept.getEndpoints()).allSatisfy(e -> {
            assertThat(e.getNodeName()).isNull();
            assertThat(e.getTargetRef()).isNull();
        });
        assertThat(ServiceLoadBalancerReconciler.serviceOf(kept)).contains("web");
        for (ServicePort port : Kube.loadBalancer("web").getSpec().getPorts()) {
            Protocol protocol = Protocol.parse(port.getProtocol());
            for (boolean publishNotReady : new boolean[] {false, true}) {
                ServiceSpecs.Backends fromKept = ServiceSpecs.backends(port, protocol, IpFamily.IPV4, List.of(kept), publishNotReady);
                assertThat(fromKept).isEqualTo(ServiceSpecs.backends(port, protocol, IpFamily.IPV4, List.of(whole), publishNotReady));
                assertThat(fromKept.addresses()).isNotEmpty();
            }
        }
        assertThat(kept.getEndpoints()).hasSize(3).extracting(e -> e.getConditions().getReady()).containsExactly(true, true, false);
        assertThat(kept.getMetadata().getLabels()).isEqualTo(Map.of("kubernetes.io/service-name", "web"));
    }

    private static Service withManagedFields(Service s) {
        return new ServiceBuilder(s).editMetadata().addToManagedFields(new ManagedFieldsEntryBuilder().withManager("kubectl")
                .withOperation("Update").build()).endMetadata().build();
    }
}
