package dev.ovnj.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.nb.ip.IpAddresses;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Service;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tenancy rules, one attack or surprise per test, on values only: two projects (proj-a on
 * router r1, proj-b on r2) sharing the provider network 172.30.0.0/24 whose gateway is .254, and
 * the command line's router gw.
 */
class TenancyTest {
    private static final ControllerSettings CLI = ControllerSettings.of("gw", "gw-ext").withSwitch("pods")
            .withRouterNamespaces(Set.of("legacy")).withExcludeAddresses(List.of("168.119.17.60-168.119.17.62"));
    private static final List<String> GW_NETWORKS = List.of("168.119.17.51/26");
    private static final ReservedAddresses RESERVED = new ReservedAddresses(Map.of(
            ip("172.30.0.254"), "the next hop of a static route of router r1 (0.0.0.0/0 via 172.30.0.254)",
            ip("172.30.0.1"), "the address of Logical_Router_Port r1-ext of router r1",
            ip("172.30.0.2"), "the address of Logical_Router_Port r2-ext of router r2"), List.of())
            .excluding(CLI.excludeAddresses(), "--exclude-addresses");

    private final Tenancy tenancy = new Tenancy(CLI);

    private static InetAddress ip(String literal) {
        return IpAddresses.parse(literal);
    }

    private static EipPools.State pool(String name, String router, String port, List<String> addresses, List<String> namespaces,
                                       java.util.function.UnaryOperator<EipPool.Spec> more) {
        EipPool.Spec spec = more.apply(new EipPool.Spec(router, port, "s-" + router, null, addresses, namespaces, null));
        EipPool p = ControllerTestBase.pool(name, spec);
        List<String> networks = List.of(port.equals("r1-ext") ? "172.30.0.1/24" : "172.30.0.2/24");
        return new EipPools.State(name, p, networks, Optional.of(PoolAddresses.resolve(spec.addressesOrAll(), networks, port)),
                Optional.empty(), Optional.of(CLI.at(router, spec.switchName(), spec.groupName(), port)));
    }

    private static Map<String, EipPools.State> pools(EipPools.State... states) {
        Map<String, EipPools.State> out = new LinkedHashMap<>();
        for (EipPools.State s : states) {
            out.put(s.name(), s);
        }
        return out;
    }

    private static final Map<String, EipPools.State> PROJECTS = pools(
            pool("a", "r1", "r1-ext", List.of("172.30.0.0/25"), List.of("proj-a"), s -> s),
            pool("b", "r2", "r2-ext", List.of("172.30.0.128/25"), List.of("proj-b"), s -> s));

    private static ServiceIntent intent(String namespace, Map<String, String> annotations) {
        Service s = Kube.loadBalancer("svc");
        s.getMetadata().setNamespace(namespace);
        s.getMetadata().setAnnotations(new HashMap<>(annotations));
        return ServiceIntent.of(s);
    }

    private Tenancy.Decision decide(ServiceIntent intent, Map<String, EipPools.State> pools, Map<String, List<InetAddress>> held) {
        return tenancy.decide(intent, new Tenancy.Facts(pools, held, RESERVED, GW_NETWORKS, port -> CLI.at("stayed", Optional.empty(),
                Optional.empty(), port), ns -> ns.startsWith("team-") ? Map.of("tenant", "team") : Map.of()));
    }

    private Tenancy.Decision decide(ServiceIntent intent) {
        return decide(intent, PROJECTS, Map.of());
    }

    private static Tenancy.Refused refused(Tenancy.Decision d) {
        assertThat(d).isInstanceOf(Tenancy.Refused.class);
        return (Tenancy.Refused) d;
    }

    private static Tenancy.Granted granted(Tenancy.Decision d) {
        assertThat(d).isInstanceOf(Tenancy.Granted.class);
        return (Tenancy.Granted) d;
    }

    @Test
    void aTenantNamingAnotherProjectsRouterSwitchOrGroupIsRefusedNamingTheAnnotation() {
        Tenancy.Refused router = refused(decide(intent("proj-b", Map.of(ServiceAnnotations.ROUTER, "r1"))));
        assertThat(router.reason()).isEqualTo(ConditionReasons.PLACEMENT_NOT_ALLOWED);
        assertThat(router.message()).startsWith("ovnj.dev/router: router r1 is not granted to the Services of EipPool b");
        Tenancy.Refused sw = refused(decide(intent("proj-b", Map.of(ServiceAnnotations.SWITCH, "s-r1"))));
        assertThat(sw.message()).startsWith("ovnj.dev/switch: switch s-r1 is not granted");
        Tenancy.Refused group = refused(decide(intent("proj-b", Map.of(ServiceAnnotations.GROUP, "g-r1"))));
        assertThat(group.message()).startsWith("ovnj.dev/group: group g-r1 is not granted");
        // On the command line's router no attachment can be granted at all.
        assertThat(refused(decide(intent("legacy", Map.of(ServiceAnnotations.ROUTER, "r1")))).message())
                .contains("the command line's router").contains("only an EipPool's spec.allowedAttachments can grant it");
    }

    @Test
    void theAdministratorGrantsAttachmentsPerPoolAndThePoolsOwnAndNoneAreAlwaysAllowed() {
        Map<String, EipPools.State> granting = pools(pool("b", "r2", "r2-ext", List.of("172.30.0.128/25"), List.of("proj-b"),
                s -> new EipPool.Spec(s.router(), s.externalPort(), s.logicalSwitch(), null, s.addresses(), s.namespaces(), null, null, null,
                        null, new EipPool.Attachments(List.of("edge"), List.of("dmz"), null), null)));
        Tenancy.Granted g = granted(decide(intent("proj-b", Map.of(ServiceAnnotations.ROUTER, "edge", ServiceAnnotations.SWITCH, "dmz")),
                granting, Map.of()));
        assertThat(g.attachment()).isEqualTo(new ServiceAnnotations.Attachment("edge", Optional.of("dmz"), Optional.empty()));
        assertThat(granted(decide(intent("proj-b", Map.of(ServiceAnnotations.ROUTER, "r2", ServiceAnnotations.SWITCH, "none"))))
                .attachment()).isEqualTo(new ServiceAnnotations.Attachment("r2", Optional.empty(), Optional.empty()));
    }

    @Test
    void aTenantNamingAnotherNamespacesPoolIsRefused() {
        Tenancy.Refused r = refused(decide(intent("proj-b", Map.of(EipPools.ANNOTATION, "a"))));
        assertThat(r.reason()).isEqualTo(ConditionReasons.PLACEMENT_NOT_ALLOWED);
        assertThat(r.message()).isEqualTo("ovnj.dev/eip-pool: EipPool a serves the namespaces [proj-a] only, not proj-b");
        assertThat(refused(decide(intent("proj-b", Map.of(EipPools.ANNOTATION, "nope")))).reason()).isEqualTo(ConditionReasons.POOL_NOT_FOUND);
    }

    @Test
    void requestingTheGatewayARouterPortAddressAnExcludedOrANetworkAddressIsRefusedSayingWhy() {
        Map<String, EipPools.State> whole = pools(pool("a", "r1", "r1-ext", List.of(), List.of("proj-a"), s -> s));
        assertThat(refused(decide(intent("proj-a", Map.of(ServiceAnnotations.ADDRESSES, "172.30.0.254")), whole, Map.of())).message())
                .isEqualTo("requested address 172.30.0.254 is reserved: the next hop of a static route of router r1 (0.0.0.0/0 via 172.30.0.254)");
        assertThat(refused(decide(intent("proj-a", Map.of(ServiceAnnotations.ADDRESSES, "172.30.0.2")), whole, Map.of())).message())
                .contains("the address of Logical_Router_Port r2-ext");
        Tenancy.Refused broadcast = refused(decide(intent("proj-a", Map.of(ServiceAnnotations.ADDRESSES, "172.30.0.255")), whole, Map.of()));
        assertThat(broadcast.reason()).isEqualTo(ConditionReasons.ADDRESS_INVALID);
        assertThat(broadcast.message()).contains("the broadcast address of 172.30.0.0/24");
        assertThat(refused(decide(intent("legacy", Map.of(ServiceAnnotations.ADDRESSES, "168.119.17.61")))).message())
                .isEqualTo("requested address 168.119.17.61 is reserved: excluded by --exclude-addresses (168.119.17.60-168.119.17.62)");
        assertThat(refused(decide(intent("legacy", Map.of(ServiceAnnotations.ADDRESSES, "168.119.17.0")))).message())
                .contains("the network address of 168.119.17.0/26");
        Map<String, EipPools.State> excluding = pools(pool("a", "r1", "r1-ext", List.of(), List.of("proj-a"),
                s -> new EipPool.Spec(s.router(), s.externalPort(), s.logicalSwitch(), null, s.addresses(), s.namespaces(), null,
                        List.of("172.30.0.10"), null, null, null, null)));
        assertThat(refused(decide(intent("proj-a", Map.of(ServiceAnnotations.ADDRESSES, "172.30.0.10")), excluding, Map.of())).message())
                .contains("excluded by EipPool a spec.excludeAddresses (172.30.0.10)");
        // Allocation never gets them either.
        Tenancy.Granted g = granted(decide(intent("proj-a", Map.of()), excluding, Map.of()));
        assertThat(g.exclusions()).anyMatch(r -> r.contains(ip("172.30.0.254"))).anyMatch(r -> r.contains(ip("172.30.0.10")))
                .anyMatch(r -> r.contains(ip("168.119.17.61")));
    }

    @Test
    void anAddressOutsideEveryPoolTheNamespaceMayUseIsRefusedAndOneInsideChoosesThatPool() {
        assertThat(refused(decide(intent("legacy", Map.of(ServiceAnnotations.ADDRESSES, "172.30.0.20")))).message())
                .isEqualTo("requested address 172.30.0.20 is not in the networks [168.119.17.51/26] of Logical_Router_Port gw-ext "
                        + "nor in an EipPool namespace legacy may use");
        Tenancy.Refused r = refused(decide(intent("proj-b", Map.of(ServiceAnnotations.ADDRESSES, "172.30.0.20"))));
        assertThat(r.reason()).isEqualTo(ConditionReasons.ADDRESS_INVALID);
        assertThat(r.message()).contains("172.30.0.20 is not in the addresses of EipPool b");
        Map<String, EipPools.State> two = pools(pool("a", "r1", "r1-ext", List.of("172.30.0.0/25"), List.of("proj-a"), s -> s),
                pool("a2", "r1", "r1-ext", List.of("172.30.0.128/26"), List.of("proj-a"), s -> new EipPool.Spec(s.router(),
                        s.externalPort(), s.logicalSwitch(), null, s.addresses(), s.namespaces(), false)));
        assertThat(granted(decide(intent("proj-a", Map.of(ServiceAnnotations.ADDRESSES, "172.30.0.130")), two, Map.of())).placement().pool())
                .contains("a2");
    }

    @Test
    void withoutAPoolAServiceWaitsUnlessTheCommandLinesRouterServesItsNamespace() {
        Tenancy.Refused r = refused(decide(intent("proj-c", Map.of())));
        assertThat(r.reason()).isEqualTo(ConditionReasons.NO_POOL);
        assertThat(r.message()).isEqualTo("no EipPool serves namespace proj-c and the command line's router gw serves only [legacy]: "
                + "waiting, without an address, for an administrator's EipPool");
        assertThat(granted(decide(intent("legacy", Map.of()))).placement().target().router()).contains("gw");
        Tenancy poolsOnly = new Tenancy(ControllerSettings.poolsOnly());
        assertThat(refused(poolsOnly.decide(intent("legacy", Map.of()), new Tenancy.Facts(PROJECTS, Map.of(), RESERVED, List.of(),
                port -> null, ns -> Map.of()))).message()).contains("the controller has no router of its own");
    }

    @Test
    void aPoolDeletedUnderAServiceKeepsItsAddressWhereItIs() {
        Map<String, List<InetAddress>> held = Map.of("r1-ext", List.of(ip("172.30.0.5")));
        Tenancy.Granted g = granted(decide(intent("proj-a", Map.of()), pools(), held));
        assertThat(g.placement().target().router()).contains("stayed");
        assertThat(g.placement().notes()).anyMatch(n -> n.contains("keeps 172.30.0.5 on Logical_Router_Port r1-ext"));
        // Re-created: it is the pool's again, same address.
        assertThat(granted(decide(intent("proj-a", Map.of()), PROJECTS, held)).placement().pool()).contains("a");
    }

    @Test
    void poolsAreChosenByPriorityThenNameAndTheirServiceSelector() {
        Map<String, EipPools.State> three = pools(
                pool("a-low", "r1", "r1-ext", List.of("172.30.0.0/26"), List.of(), s -> spec(s, 10, null)),
                pool("b-high", "r1", "r1-ext", List.of("172.30.0.64/26"), List.of(), s -> spec(s, 1,
                        new LabelSelectorBuilder().withMatchLabels(Map.of("tier", "web")).build())),
                pool("c-none", "r1", "r1-ext", List.of("172.30.0.128/26"), List.of(), s -> s));
        Service web = Kube.loadBalancer("web");
        web.getMetadata().setNamespace("any");
        web.getMetadata().setLabels(Map.of("tier", "web"));
        assertThat(granted(decide(ServiceIntent.of(web), three, Map.of())).placement().pool()).contains("b-high");
        assertThat(granted(decide(intent("any", Map.of()), three, Map.of())).placement().pool()).contains("a-low");
    }

    @Test
    void aPoolsNamespaceSelectorAdmitsTheNamespacesWhoseLabelsMatchAndNoOther() {
        Map<String, EipPools.State> teams = pools(pool("teams", "r1", "r1-ext", List.of("172.30.0.0/25"), List.of(),
                s -> new EipPool.Spec(s.router(), s.externalPort(), s.logicalSwitch(), null, s.addresses(), null, null, null, null, null, null,
                        new LabelSelectorBuilder().withMatchLabels(Map.of("tenant", "team")).build())));
        assertThat(granted(decide(intent("team-red", Map.of()), teams, Map.of())).placement().pool()).contains("teams");
        assertThat(refused(decide(intent("other", Map.of()), teams, Map.of())).reason()).isEqualTo(ConditionReasons.NO_POOL);
        assertThat(refused(decide(intent("other", Map.of(EipPools.ANNOTATION, "teams")), teams, Map.of())).message())
                .contains("and those its namespaceSelector matches only, not other");
    }

    private static EipPool.Spec spec(EipPool.Spec s, Integer priority, io.fabric8.kubernetes.api.model.LabelSelector selector) {
        return new EipPool.Spec(s.router(), s.externalPort(), s.logicalSwitch(), null, s.addresses(), s.namespaces(), null, null, priority,
                selector, null, null);
    }

    @Test
    void aMalformedRequestOrAnnotationIsRefusedBeforeAnythingElse() {
        assertThat(refused(decide(intent("proj-a", Map.of(ServiceAnnotations.ADDRESSES, "172.30.0.x")))).message())
                .isEqualTo("requested address \"172.30.0.x\" is not an IP address");
        assertThat(refused(decide(intent("proj-a", Map.of(ServiceAnnotations.HEALTH_CHECK, "every=5")))).reason())
                .isEqualTo(ConditionReasons.INVALID_ANNOTATION);
    }
}
