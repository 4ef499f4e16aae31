package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.nb.ip.IpAddresses;
import io.fabric8.kubernetes.api.model.Service;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SourceRangesTest {
    private static final ServiceAnnotations.Attachment ATTACH =
            new ServiceAnnotations.Attachment("gw", Optional.of("pods"), Optional.empty());

    private static Service web(List<String> field, Map<String, String> annotations) {
        Service s = Kube.loadBalancer("web");
        s.getSpec().setLoadBalancerSourceRanges(field);
        s.getMetadata().setAnnotations(annotations);
        return s;
    }

    private static LoadBalancerSpec spec(Service s) {
        return ServiceSpecs.translate(s, List.of(Kube.slice("web-a", "web", "10.1.0.10")), List.of(IpAddresses.parse("168.119.17.49")),
                ATTACH, false, Optional.empty()).spec();
    }

    @Test
    void theFieldWinsOverTheAnnotationAndARestrictedServiceIsOnTheRouterOnly() {
        Map<String, String> annotation = Map.of(SourceRanges.ANNOTATION, " 192.0.2.0/24 , 203.0.113.0/24,");
        LoadBalancerSpec both = spec(web(List.of("198.51.100.0/24"), annotation));
        assertThat(both.sourceRanges()).containsExactly("198.51.100.0/24");
        assertThat(both.switches()).isEmpty();
        assertThat(both.routers()).containsExactly("gw");
        assertThat(spec(web(null, annotation)).sourceRanges()).containsExactly("192.0.2.0/24", "203.0.113.0/24");
        LoadBalancerSpec open = spec(web(List.of(), Map.of()));
        assertThat(open.sourceRanges()).isEmpty();
        assertThat(open.switches()).containsExactly("pods");
    }

    @Test
    void aRangeOvnCannotHoldIsRefusedNamingTheServicesField() {
        Service field = web(List.of("198.51.100.0/24", "198.51.100.300/24"), Map.of());
        IllegalArgumentException e = catchThrowableOfType(IllegalArgumentException.class, () -> spec(field));
        LoadBalancerCondition c = SourceRanges.refusal(field, e, "INVALID");
        assertThat(c.status()).isEqualTo("False");
        assertThat(c.reason()).isEqualTo(SourceRanges.UNSUPPORTED);
        assertThat(c.message()).startsWith("spec.loadBalancerSourceRanges[1]: \"198.51.100.300/24\" is not a network")
                .endsWith("the load balancer is left as it was");

        Service annotated = web(null, Map.of(SourceRanges.ANNOTATION, "2001:db8::/32"));
        IllegalArgumentException v6 = catchThrowableOfType(IllegalArgumentException.class, () -> spec(annotated));
        assertThat(SourceRanges.refusal(annotated, v6, "INVALID").message()).startsWith("metadata.annotations["
                + SourceRanges.ANNOTATION + "][0]: \"2001:db8::/32\" is IPv6 but every VIP of this spec is IPv4");
        assertThat(SourceRanges.refusal(annotated, new IllegalArgumentException("odd"), "INVALID").reason()).isEqualTo("INVALID");
    }
}
