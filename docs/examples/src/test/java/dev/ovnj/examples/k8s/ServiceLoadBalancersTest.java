package dev.ovnj.examples.k8s;

import static dev.ovnj.examples.k8s.KubeObjects.loadBalancer;
import static dev.ovnj.examples.k8s.KubeObjects.slice;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServiceLoadBalancersTest {
    private static final Project PROJECT = new Project("shalb-dev", "shalb-dev", "shalb-dev-ext", "shalb-dev-default");

    @Test
    void oneVipPerServicePortWithReadyEndpointsOnTheSlicePorts() {
        LoadBalancerSpec spec = ServiceLoadBalancers.spec(loadBalancer("web"),
                List.of(slice("web-b", "web", "10.1.0.12"), slice("web-a", "web", "10.1.0.11", "10.1.0.10")),
                "168.119.17.49", PROJECT);

        assertThat(spec.name()).isEqualTo("shalb-dev-web");
        assertThat(spec.routers()).containsExactly("shalb-dev");
        assertThat(spec.switches()).containsExactly("shalb-dev-default");
        assertThat(spec.vips()).containsExactly(
                VipSpec.of(Protocol.TCP, "168.119.17.49:80", List.of("10.1.0.10:8080", "10.1.0.11:8080", "10.1.0.12:8080")),
                VipSpec.of(Protocol.UDP, "168.119.17.49:53", List.of("10.1.0.10:5353", "10.1.0.11:5353", "10.1.0.12:5353")));
    }

    @Test
    void sctpUnnamedPortsAndSlicesOfOtherFamiliesOrPorts() {
        var service = loadBalancer("sig");
        service.getSpec().setPorts(List.of(new ServicePortBuilder()
                .withProtocol("SCTP").withPort(3868).build()));
        EndpointSlice unnamed = new EndpointSliceBuilder().withNewMetadata().withName("sig-a").endMetadata()
                .withAddressType("IPv4").addNewPort().withProtocol("SCTP").withPort(13868).endPort()
                .addNewEndpoint().withAddresses("10.1.0.20").endEndpoint()   // no conditions: ready
                .build();
        EndpointSlice v6 = new EndpointSliceBuilder(unnamed).editMetadata().withName("sig-b").endMetadata()
                .withAddressType("IPv6").withEndpoints().addNewEndpoint().withAddresses("fd00::20").endEndpoint().build();
        EndpointSlice tcpOnly = new EndpointSliceBuilder(unnamed).editMetadata().withName("sig-c").endMetadata()
                .withPorts().addNewPort().withProtocol("TCP").withPort(13868).endPort()
                .withEndpoints().addNewEndpoint().withAddresses("10.1.0.21").endEndpoint().build();

        LoadBalancerSpec spec = ServiceLoadBalancers.spec(service, List.of(unnamed, v6, tcpOnly), "168.119.17.50", PROJECT);

        assertThat(spec.vips()).containsExactly(VipSpec.of(Protocol.SCTP, "168.119.17.50:3868", List.of("10.1.0.20:13868")));
    }
}
