package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LbOptions;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpFamily;
import io.fabric8.kubernetes.api.model.ClientIPConfig;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.SessionAffinityConfig;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

        ServiceSpecs.Translation translation = ServiceSpecs.translate(svc, slices,
                List.of(IpAddresses.parse("168.119.17.49"), IpAddresses.parse("fd00:10::2")), ATTACH, false, Optional.empty());
        LoadBalancerSpec spec = translation.spec();

        assertThat(spec.name()).isEqualTo("shop/web");
        assertThat(spec.routers()).containsExactly("gw");
        assertThat(spec.switches()).containsExactly("pods");
        assertThat(spec.vips()).extracting(VipSpec::vip, VipSpec::protocol, VipSpec::backends).containsExactly(
                org.assertj.core.groups.Tuple.tuple("168.119.17.49:80", Protocol.TCP, List.of("10.1.0.10:8080")),
                org.assertj.core.groups.Tuple.tuple("168.119.17.49:9000", Protocol.SCTP, List.of()),
                org.assertj.core.groups.Tuple.tuple("[fd00:10::2]:80", Protocol.TCP, List.of("[fd00:1::10]:8080", "[fd00:1::11]:8080")),
                org.assertj.core.groups.Tuple.tuple("[fd00:10::2]:9000", Protocol.SCTP, List.of()));
        // The SCTP port has no endpoints published: its VIPs reject (reject is on for every Service).
        assertThat(spec.options()).isEqualTo(LbOptions.DEFAULTS.withReject(true));
        assertThat(translation.notes()).containsExactly(
                "no ready endpoints for 168.119.17.49:9000/sctp, [fd00:10::2]:9000/sctp: connections are rejected");
        assertThat(translation.clamped()).isEmpty();
    }

    @Test
    void withoutAnyReadyEndpointEveryVipKeepsAnEmptyBackendListAndRejects() {
        ServiceSpecs.Translation t = ServiceSpecs.translate(service(Map.of()),
                List.of(slice("IPv4", 8080, "10.1.0.10", false, "10.1.0.11", false)), List.of(IpAddresses.parse("168.119.17.49")),
                ATTACH, false, Optional.empty());
        assertThat(t.spec().vips()).extracting(VipSpec::vip, VipSpec::backends).containsExactly(
                org.assertj.core.groups.Tuple.tuple("168.119.17.49:80", List.of()),
                org.assertj.core.groups.Tuple.tuple("168.119.17.49:9000", List.of()));
        assertThat(t.spec().options().reject()).isTrue();
        assertThat(t.notes()).containsExactly("no ready endpoints: every VIP rejects connections");
    }

    @Test
    void readyEndpointsFirstThenServingTerminatingOnesAndEveryOneWhenNotReadyAddressesArePublished() {
        ServicePort http = service(Map.of()).getSpec().getPorts().get(0);
        EndpointSlice slice = new EndpointSliceBuilder().withNewMetadata().withName("web-x").withNamespace("shop").endMetadata()
                .withAddressType("IPv4").addNewPort().withName("http").withProtocol("TCP").withPort(8080).endPort()
                .addNewEndpoint().withAddresses("10.1.0.1").withNewConditions().withReady(false).withServing(true)
                .withTerminating(true).endConditions().endEndpoint()
                .addNewEndpoint().withAddresses("10.1.0.2").withNewConditions().withReady(false).withServing(false)
                .withTerminating(true).endConditions().endEndpoint()
                .addNewEndpoint().withAddresses("10.1.0.3").withNewConditions().withReady(false).endConditions().endEndpoint()
                .build();
        // None ready: the serving terminating one drains; the one no longer serving and the starting one do not.
        assertThat(ServiceSpecs.backends(http, Protocol.TCP, IpFamily.IPV4, List.of(slice), false))
                .isEqualTo(new ServiceSpecs.Backends(List.of("10.1.0.1:8080"), true));
        // publishNotReadyAddresses: every endpoint, whatever its conditions.
        assertThat(ServiceSpecs.backends(http, Protocol.TCP, IpFamily.IPV4, List.of(slice), true))
                .isEqualTo(new ServiceSpecs.Backends(List.of("10.1.0.1:8080", "10.1.0.2:8080", "10.1.0.3:8080"), false));
        // One ready endpoint (an absent readiness counts as ready): the terminating one gets no new traffic.
        EndpointSlice withReady = new EndpointSliceBuilder(slice).addNewEndpoint().withAddresses("10.1.0.4").endEndpoint().build();
        assertThat(ServiceSpecs.backends(http, Protocol.TCP, IpFamily.IPV4, List.of(withReady), false))
                .isEqualTo(new ServiceSpecs.Backends(List.of("10.1.0.4:8080"), false));

        Service svc = service(Map.of());
        svc.getSpec().setIpFamilies(List.of("IPv4"));
        ServiceSpecs.Translation t = ServiceSpecs.translate(svc, List.of(slice), List.of(IpAddresses.parse("168.119.17.49")),
                ATTACH, false, Optional.empty());
        assertThat(t.notes()).containsExactly("no ready endpoints for 168.119.17.49:9000/sctp: connections are rejected",
                "no ready endpoints for 168.119.17.49:80/tcp: serving terminating endpoints until they end");
    }

    @Test
    void sessionAffinityAndExternalTrafficPolicyBecomeOptionsAndATimeoutAboveOvnsMaximumIsClamped() {
        Service svc = service(Map.of());
        assertThat(ServiceSpecs.options(svc, false, new ArrayList<>())).isEqualTo(LbOptions.DEFAULTS.withReject(true));

        svc.getSpec().setSessionAffinity("ClientIP");
        svc.getSpec().setExternalTrafficPolicy("Local");
        // skip_snat only on a gateway router: on a distributed one OVN keeps the client's address
        // without it, and with it would not un-DNAT the replies.
        assertThat(ServiceSpecs.options(svc, true, new ArrayList<>()))
                .isEqualTo(LbOptions.DEFAULTS.withReject(true).withAffinityTimeout(10800).withSkipSnat(true));
        assertThat(ServiceSpecs.options(svc, false, new ArrayList<>()))
                .isEqualTo(LbOptions.DEFAULTS.withReject(true).withAffinityTimeout(10800));
        assertThat(ServiceSpecs.translate(svc, List.of(), List.of(IpAddresses.parse("168.119.17.49")), ATTACH, false,
                Optional.empty()).notes()).contains("externalTrafficPolicy Local: no skip_snat on distributed router gw"
                + " (OVN keeps the client's address there without it)");
        assertThat(ServiceSpecs.translate(svc, List.of(), List.of(IpAddresses.parse("168.119.17.49")), ATTACH, true,
                Optional.empty()).notes()).noneMatch(n -> n.contains("skip_snat"));

        svc.getSpec().setSessionAffinityConfig(new SessionAffinityConfig(new ClientIPConfig(65535)));
        assertThat(ServiceSpecs.options(svc, false, new ArrayList<>()).affinityTimeout()).hasValue(65535);

        svc.getSpec().setSessionAffinityConfig(new SessionAffinityConfig(new ClientIPConfig(86400)));
        ServiceSpecs.Translation t = ServiceSpecs.translate(svc, List.of(), List.of(IpAddresses.parse("168.119.17.49")),
                ATTACH, false, Optional.empty());
        assertThat(t.spec().options().affinityTimeout()).hasValue(65535);
        assertThat(t.clamped()).containsExactly("spec.sessionAffinityConfig.clientIP.timeoutSeconds: 86400 s is above OVN's"
                + " maximum affinity_timeout, clamped to 65535 s");
        assertThat(t.notes()).contains(t.clamped().get(0));

        svc.getSpec().setSessionAffinity("None");
        svc.getSpec().setExternalTrafficPolicy("Cluster");
        assertThat(ServiceSpecs.options(svc, false, new ArrayList<>())).isEqualTo(LbOptions.DEFAULTS.withReject(true));
    }

    @Test
    void fieldsThatDoNotApplyToARouterEipLeaveTheSpecAsItIs() {
        Service plain = service(Map.of());
        Service busy = service(Map.of());
        busy.getSpec().setClusterIP("10.96.0.10");
        busy.getSpec().setClusterIPs(List.of("10.96.0.10", "fd00:96::10"));
        busy.getSpec().setExternalIPs(List.of("198.51.100.7"));
        busy.getSpec().setAllocateLoadBalancerNodePorts(false);
        busy.getSpec().setHealthCheckNodePort(31000);
        busy.getSpec().setInternalTrafficPolicy("Local");
        busy.getSpec().setTrafficDistribution("PreferClose");
        busy.getSpec().getPorts().get(0).setNodePort(30080);
        busy.getSpec().getPorts().get(0).setAppProtocol("http");
        List<EndpointSlice> slices = List.of(slice("IPv4", 8080, "10.1.0.10", true, "10.1.0.11", false));
        List<java.net.InetAddress> eips = List.of(IpAddresses.parse("168.119.17.49"));
        assertThat(ServiceSpecs.translate(busy, slices, eips, ATTACH, false, Optional.empty()))
                .isEqualTo(ServiceSpecs.translate(plain, slices, eips, ATTACH, false, Optional.empty()));
    }

    @Test
    void valuesTheApiServerRefusesAreRefusedNamingTheField() {
        Service svc = service(Map.of());
        svc.getSpec().setSessionAffinity("ClientIP");
        svc.getSpec().setSessionAffinityConfig(new SessionAffinityConfig(new ClientIPConfig(0)));
        assertThatThrownBy(() -> ServiceSpecs.options(svc, false, new ArrayList<>()))
                .hasMessage("spec.sessionAffinityConfig.clientIP.timeoutSeconds: 0 is not a positive number of seconds");
        svc.getSpec().setSessionAffinity("Cookie");
        assertThatThrownBy(() -> ServiceSpecs.options(svc, false, new ArrayList<>()))
                .hasMessage("spec.sessionAffinity: \"Cookie\" is neither ClientIP nor None");
        svc.getSpec().setSessionAffinity(null);
        svc.getSpec().setExternalTrafficPolicy("Global");
        assertThatThrownBy(() -> ServiceSpecs.options(svc, false, new ArrayList<>()))
                .hasMessage("spec.externalTrafficPolicy: \"Global\" is neither Cluster nor Local");
    }

    @Test
    void ipFamilyPolicyChoosesTheFamiliesTheExternalNetworkHas() {
        Set<IpFamily> v4 = Set.of(IpFamily.IPV4);
        Set<IpFamily> both = Set.of(IpFamily.IPV4, IpFamily.IPV6);
        Service svc = service(Map.of());
        svc.getSpec().setIpFamilies(List.of("IPv6", "IPv4"));

        // SingleStack (also the default): the first family only.
        assertThat(ServiceIpFamilies.choose(svc, both, "ext"))
                .isEqualTo(new ServiceIpFamilies(List.of(IpFamily.IPV6), Optional.empty()));
        svc.getSpec().setIpFamilyPolicy("SingleStack");
        assertThatThrownBy(() -> ServiceIpFamilies.choose(svc, v4, "ext")).hasMessage("spec.ipFamilyPolicy SingleStack asks for"
                + " IPv6 (spec.ipFamilies[0]), and the external network (Logical_Router_Port ext) has no IPv6 network");

        // PreferDualStack: what the network has, saying what is missing.
        svc.getSpec().setIpFamilyPolicy("PreferDualStack");
        assertThat(ServiceIpFamilies.choose(svc, both, "ext"))
                .isEqualTo(new ServiceIpFamilies(List.of(IpFamily.IPV6, IpFamily.IPV4), Optional.empty()));
        assertThat(ServiceIpFamilies.choose(svc, v4, "ext")).isEqualTo(new ServiceIpFamilies(List.of(IpFamily.IPV4),
                Optional.of("spec.ipFamilyPolicy PreferDualStack: the external network has no IPv6 network, serving IPv4 only")));
        assertThatThrownBy(() -> ServiceIpFamilies.choose(svc, Set.of(), "ext"))
                .hasMessage("spec.ipFamilyPolicy PreferDualStack: the external network (Logical_Router_Port ext) has none of"
                        + " IPv6 and IPv4");

        // RequireDualStack: both, or a refusal naming the missing family.
        svc.getSpec().setIpFamilyPolicy("RequireDualStack");
        svc.getSpec().setIpFamilies(List.of("IPv4"));
        assertThat(ServiceIpFamilies.choose(svc, both, "ext"))
                .isEqualTo(new ServiceIpFamilies(List.of(IpFamily.IPV4, IpFamily.IPV6), Optional.empty()));
        assertThatThrownBy(() -> ServiceIpFamilies.choose(svc, v4, "ext")).hasMessage("spec.ipFamilyPolicy RequireDualStack:"
                + " the external network (Logical_Router_Port ext) has no IPv6 network; no address is claimed until it has");

        svc.getSpec().setIpFamilyPolicy("TripleStack");
        assertThatThrownBy(() -> ServiceIpFamilies.choose(svc, both, "ext")).hasMessageContaining("spec.ipFamilyPolicy: \"TripleStack\"");
    }

    @Test
    void aNamedTargetPortIsTheNumberEachSlicePublishesUnderThePortsName() {
        // Two slices: pods of two versions serving the named port "web" on different numbers.
        List<EndpointSlice> slices = List.of(slice("IPv4", 8080, "10.1.0.10", true, "10.1.0.98", false),
                slice("IPv4", 9090, "10.1.0.20", true, "10.1.0.99", false));
        LoadBalancerSpec spec = ServiceSpecs.translate(service(Map.of()), slices, List.of(IpAddresses.parse("168.119.17.49")), ATTACH, false,
                Optional.empty()).spec();
        assertThat(spec.vips().get(0).backends()).containsExactly("10.1.0.10:8080", "10.1.0.20:9090");
    }

    @Test
    void annotationsOverrideTheAttachmentAndAskForAHealthCheck() {
        Service svc = service(Map.of(ServiceAnnotations.ROUTER, "edge", ServiceAnnotations.SWITCH, "none",
                ServiceAnnotations.GROUP, "shared", ServiceAnnotations.HEALTH_CHECK, "interval=7,failure=2",
                ServiceAnnotations.ADDRESSES, "168.119.17.50, fd00:10::5"));
        ServiceIntent intent = ServiceIntent.of(svc);
        assertThat(intent.router()).contains("edge");
        assertThat(intent.logicalSwitch()).contains("none");
        assertThat(intent.group()).contains("shared");
        assertThat(ServiceAnnotations.healthCheck(svc)).contains(HealthCheck.DEFAULTS.withInterval(7).withCounts(3, 2));
        assertThat(ServiceAnnotations.requestedAddresses(svc)).containsExactly("168.119.17.50", "fd00:10::5");
        assertThat(ServiceIntent.of(service(Map.of())).namesPlacement()).isFalse();
        assertThat(intent.namesPlacement()).isTrue();
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
