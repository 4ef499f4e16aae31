package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.ip.IpAddresses;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServiceSpecsTest {
    private static final ServiceAnnotations.Attachment ATTACH =
            new ServiceAnnotations.Attachment("gw", Optional.of("pods"), Optional.empty());

    @Test
    void dualStackServiceGetsOneVipPerFamilyAndPortWithReadyBackendsOfItsFamily() {
        Service svc = service(Map.of());
        List<EndpointSlice> slices = List.of(
                slice("IPv4", 8080, "10.1.0.10", true, "10.1.0.11", false),
                slice("IPv6", 8080, "fd00:1::10", true, "fd00:1::11", true));

        LoadBalancerSpec spec = ServiceSpecs.spec(svc, slices,
                List.of(IpAddresses.parse("168.119.17.49"), IpAddresses.parse("fd00:10::2")), ATTACH, Optional.empty());

        assertThat(spec.name()).isEqualTo("shop/web");
        assertThat(spec.routers()).containsExactly("gw");
        assertThat(spec.switches()).containsExactly("pods");
        assertThat(spec.vips()).extracting(VipSpec::vip, VipSpec::protocol, VipSpec::backends).containsExactly(
                org.assertj.core.groups.Tuple.tuple("168.119.17.49:80", Protocol.TCP, List.of("10.1.0.10:8080")),
                org.assertj.core.groups.Tuple.tuple("168.119.17.49:9000", Protocol.SCTP, List.of()),
                org.assertj.core.groups.Tuple.tuple("[fd00:10::2]:80", Protocol.TCP, List.of("[fd00:1::10]:8080", "[fd00:1::11]:8080")),
                org.assertj.core.groups.Tuple.tuple("[fd00:10::2]:9000", Protocol.SCTP, List.of()));
    }

    @Test
    void aNamedTargetPortIsTheNumberEachSlicePublishesUnderThePortsName() {
        // Two slices: pods of two versions serving the named port "web" on different numbers.
        List<EndpointSlice> slices = List.of(slice("IPv4", 8080, "10.1.0.10", true, "10.1.0.98", false),
                slice("IPv4", 9090, "10.1.0.20", true, "10.1.0.99", false));
        LoadBalancerSpec spec = ServiceSpecs.spec(service(Map.of()), slices, List.of(IpAddresses.parse("168.119.17.49")), ATTACH,
                Optional.empty());
        assertThat(spec.vips().get(0).backends()).containsExactly("10.1.0.10:8080", "10.1.0.20:9090");
    }

    @Test
    void annotationsOverrideTheAttachmentAndAskForAHealthCheck() {
        ControllerSettings settings = ControllerSettings.of("gw", "gw-ext").withSwitch("pods");
        Service svc = service(Map.of(ServiceAnnotations.ROUTER, "edge", ServiceAnnotations.SWITCH, "none",
                ServiceAnnotations.GROUP, "shared", ServiceAnnotations.HEALTH_CHECK, "interval=7,failure=2",
                ServiceAnnotations.ADDRESSES, "168.119.17.50, fd00:10::5"));
        assertThat(ServiceAnnotations.attachment(svc, settings))
                .isEqualTo(new ServiceAnnotations.Attachment("edge", Optional.empty(), Optional.of("shared")));
        assertThat(ServiceAnnotations.healthCheck(svc)).contains(HealthCheck.DEFAULTS.withInterval(7).withCounts(3, 2));
        assertThat(ServiceAnnotations.requestedAddresses(svc)).containsExactly("168.119.17.50", "fd00:10::5");
        assertThat(ServiceAnnotations.attachment(service(Map.of()), settings))
                .isEqualTo(new ServiceAnnotations.Attachment("gw", Optional.of("pods"), Optional.empty()));
    }

    @Test
    void aMalformedHealthCheckAnnotationIsNamedInTheError() {
        assertThatThrownBy(() -> ServiceAnnotations.healthCheck(service(Map.of(ServiceAnnotations.HEALTH_CHECK, "interval=often"))))
                .hasMessage("ovnj.dev/health-check: interval=\"often\" is not a number");
        assertThatThrownBy(() -> ServiceAnnotations.healthCheck(service(Map.of(ServiceAnnotations.HEALTH_CHECK, "retries=3"))))
                .hasMessageContaining("unknown key \"retries\"");
    }

    @Test
    void theLoadBalancerIpFieldIsTheRequestWithoutAnAnnotation() {
        Service svc = service(Map.of());
        svc.getSpec().setLoadBalancerIP("168.119.17.55");
        assertThat(ServiceAnnotations.requestedAddresses(svc)).containsExactly("168.119.17.55");
    }

    private static Service service(Map<String, String> annotations) {
        return new ServiceBuilder().withNewMetadata().withName("web").withNamespace("shop").withAnnotations(annotations).endMetadata()
                .withNewSpec().withType("LoadBalancer").withIpFamilies("IPv4", "IPv6")
                .addNewPort().withName("http").withProtocol("TCP").withPort(80).withTargetPort(new IntOrString("web")).endPort()
                .addNewPort().withName("sig").withProtocol("SCTP").withPort(9000).withTargetPort(new IntOrString(9000)).endPort()
                .endSpec().build();
    }

    private static EndpointSlice slice(String type, int httpPort, String ip1, boolean ready1, String ip2, boolean ready2) {
        return new EndpointSliceBuilder().withNewMetadata().withName("web-" + type + httpPort).withNamespace("shop")
                .addToLabels(ServiceSpecs.SERVICE_NAME_LABEL, "web").endMetadata()
                .withAddressType(type)
                .addNewPort().withName("http").withProtocol("TCP").withPort(httpPort).endPort()
                .addNewEndpoint().withAddresses(ip1).withNewConditions().withReady(ready1).endConditions().endEndpoint()
                .addNewEndpoint().withAddresses(ip2).withNewConditions().withReady(ready2).endConditions().endEndpoint()
                .build();
    }
}
