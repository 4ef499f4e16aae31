package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.Protocol;
import dev.ovnj.lb.spec.VipSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DesiredStateReaderTest {

    static final String FULL = """
            owner: kube-dc
            loadBalancers:
              - name: shalb-dev-etcd-lb
                routers: [shalb-dev]
                switches: [shalb-dev-default]
                vips:
                  - vip: 168.119.17.51:2379
                    protocol: udp
                    backends: [10.1.0.40:2379, 10.1.0.41:2379]
                options:
                  affinityTimeout: 10800
                  reject: true
                  skipSnat: true
                  hairpinSnatIp: 169.254.0.5
                  neighborResponder: reachable
                  selectionFields: [ip_src, ip_dst]
                externalIds: {team: infra, cost: 42}
              - name: grouped
                group: shalb-dev-lbs
                vips:
                  - vip: 168.119.17.52:80
            """;

    @Test
    void readsEveryField() {
        DesiredState s = DesiredStateReader.parse("state.yaml", FULL);
        assertThat(s.owner()).contains("kube-dc");
        LoadBalancerSpec etcd = s.specs().get(0);
        assertThat(etcd.name()).isEqualTo("shalb-dev-etcd-lb");
        assertThat(etcd.routers()).containsExactly("shalb-dev");
        assertThat(etcd.switches()).containsExactly("shalb-dev-default");
        assertThat(etcd.group()).isEmpty();
        assertThat(etcd.vips()).containsExactly(new VipSpec("168.119.17.51:2379", Protocol.UDP, List.of("10.1.0.40:2379", "10.1.0.41:2379")));
        assertThat(etcd.options().affinityTimeout()).isEqualTo(OptionalInt.of(10800));
        assertThat(etcd.options().reject()).isTrue();
        assertThat(etcd.options().skipSnat()).isTrue();
        assertThat(etcd.options().hairpinSnatIp()).contains("169.254.0.5");
        assertThat(etcd.options().neighborResponder()).contains("reachable");
        assertThat(etcd.options().selectionFields()).containsExactlyInAnyOrder("ip_src", "ip_dst");
        assertThat(etcd.externalIds()).isEqualTo(Map.of("team", "infra", "cost", "42"));
    }

    @Test
    void leftOutFieldsTakeTheirDefaults() {
        LoadBalancerSpec grouped = DesiredStateReader.parse("state.yaml", FULL).specs().get(1);
        assertThat(grouped.group()).contains("shalb-dev-lbs");
        assertThat(grouped.routers()).isEmpty();
        assertThat(grouped.switches()).isEmpty();
        assertThat(grouped.vips()).containsExactly(new VipSpec("168.119.17.52:80", Protocol.TCP, List.of()));
        assertThat(grouped.options().affinityTimeout()).isEmpty();
        assertThat(grouped.options().reject()).isFalse();
        assertThat(grouped.options().skipSnat()).isFalse();
        assertThat(grouped.options().hairpinSnatIp()).isEqualTo(Optional.empty());
        assertThat(grouped.options().selectionFields()).isEqualTo(Set.of());
        assertThat(grouped.externalIds()).isEmpty();
    }

    @Test
    void readsJsonAndTheOwnerOptionWins() {
        DesiredState s = DesiredStateReader.parse("state.json", """
                {"owner": "a", "loadBalancers": [
                  {"name": "web", "vips": [{"vip": "10.0.0.1:80", "protocol": "sctp", "backends": ["10.0.1.1:80"]}]}
                ]}""");
        assertThat(s.specs()).singleElement().extracting(sp -> sp.vips().get(0).protocol()).isEqualTo(Protocol.SCTP);
        assertThat(s.ownerOr("b")).isEqualTo("b");
        assertThat(s.ownerOr(null)).isEqualTo("a");
    }

    @Test
    void anEmptyListDeclaresNoLoadBalancersButAMissingOneIsAnError() {
        assertThat(DesiredStateReader.parse("s.yaml", "owner: a\nloadBalancers: []\n").specs()).isEmpty();
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", "owner: a\n"))
                .hasMessage("s.yaml:1: missing field \"loadBalancers\" (write loadBalancers: [] to remove all of the owner's load balancers)");
    }

    @Test
    void unknownFieldsNameTheFieldTheLineAndWhereTheyAre() {
        String text = FULL.replace("      - vip: 168.119.17.52:80", "      - vipz: 168.119.17.52:80");
        assertThatThrownBy(() -> DesiredStateReader.parse("state.yaml", text))
                .isInstanceOf(DesiredStateException.class)
                .hasMessage("state.yaml:21: unknown field \"vipz\" in loadBalancers[1].vips[0]");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", "owner: a\nloadBalancer: []\n"))
                .hasMessage("s.yaml:2: unknown field \"loadBalancer\" in the document");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", FULL.replace("skipSnat", "skipSnatt")))
                .hasMessage("s.yaml:13: unknown field \"skipSnatt\" in loadBalancers[0].options");
    }

    @Test
    void wrongTypesNameTheFieldAndTheLine() {
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", FULL.replace("affinityTimeout: 10800", "affinityTimeout: long")))
                .hasMessage("s.yaml:11: loadBalancers[0].options.affinityTimeout must be a whole number, not a string");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", FULL.replace("reject: true", "reject: 1")))
                .hasMessage("s.yaml:12: loadBalancers[0].options.reject must be true or false, not a number");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", FULL.replace("routers: [shalb-dev]", "routers: shalb-dev")))
                .hasMessage("s.yaml:4: loadBalancers[0].routers must be a list, not a string");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", FULL.replace("backends: [10.1.0.40:2379, 10.1.0.41:2379]", "backends: [{a: 1}]")))
                .hasMessage("s.yaml:9: unknown field \"a\" in loadBalancers[0].vips[0].backends[0]");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", FULL.replace("backends: [10.1.0.40:2379, 10.1.0.41:2379]",
                "backends: [{port: p1}]"))).hasMessage("s.yaml:9: missing field \"address\" in loadBalancers[0].vips[0].backends[0]");
    }

    @Test
    void readsHealthChecksSourcesAndBackendPorts() {
        String text = """
                owner: kube
                healthCheckSources:
                  ls-int: [10.0.0.254, "fd00:10::fe"]
                loadBalancers:
                  - name: web
                    switches: [ls-int]
                    vips:
                      - vip: 172.16.0.100:80
                        backends:
                          - 10.0.0.2:80
                          - {address: 10.0.0.3:80, port: web2}
                        healthCheck: {interval: 7, timeout: 9, successCount: 2, failureCount: 4, sourceIp: 10.0.0.253}
                      - vip: 172.16.0.100:81
                        backends: [10.0.0.2:81]
                        healthCheck: {}
                """;
        LoadBalancerSpec web = DesiredStateReader.parse("s.yaml", text).specs().get(0);
        assertThat(web.healthCheckSources()).isEqualTo(Map.of("ls-int", List.of("10.0.0.254", "fd00:10::fe")));
        assertThat(web.vips().get(0).backends()).containsExactly("10.0.0.2:80", "10.0.0.3:80");
        assertThat(web.vips().get(0).backendPorts()).isEqualTo(Map.of("10.0.0.3", "web2"));
        assertThat(web.vips().get(0).healthCheck()).contains(new dev.ovnj.lb.spec.HealthCheck(7, 9, 2, 4, java.util.Optional.of("10.0.0.253")));
        assertThat(web.vips().get(1).healthCheck()).contains(dev.ovnj.lb.spec.HealthCheck.DEFAULTS);
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", text.replace("interval: 7", "every: 7")))
                .hasMessage("s.yaml:12: unknown field \"every\" in loadBalancers[0].vips[0].healthCheck");
    }

    @Test
    void anUnknownProtocolIsNamedWithItsLine() {
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", FULL.replace("protocol: udp", "protocol: icmp")))
                .hasMessage("s.yaml:8: loadBalancers[0].vips[0].protocol: \"icmp\" is not one of tcp, udp, sctp");
    }

    @Test
    void missingRequiredFieldsAndSyntaxErrorsAreNamed() {
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", "loadBalancers:\n  - vips: []\n"))
                .hasMessage("s.yaml:2: missing field \"name\" in loadBalancers[0]");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", "loadBalancers:\n  - name: x\n"))
                .hasMessage("s.yaml:2: missing field \"vips\" in loadBalancers[0]");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", "owner: a\nowner: b\nloadBalancers: []\n"))
                .hasMessage("s.yaml:2: field \"owner\" is given twice");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.json", "{\"owner\": \"a\",\n \"loadBalancers\": [}"))
                .hasMessageStartingWith("s.json:2: not valid JSON: ");
        // The useful part of a YAML syntax error is after its first line: what was expected, and where.
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml",
                "owner: x\nloadBalancers:\n  - name: a\n    vips:\n      - vip: 1.2.3.4:80\n       backends: [1.1.1.1:80]\n"))
                .hasMessageStartingWith("s.yaml:6: not valid YAML: while parsing a block collection (line 5, column 7): "
                        + "expected <block end>, but found '<block mapping start>' (line 6, column 8)");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", "owner: [a\nloadBalancers: []\n"))
                .hasMessageStartingWith("s.yaml:").hasMessageContaining("not valid YAML");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", "")).hasMessage("s.yaml: the file is empty");
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", "loadBalancers: []\n").ownerOr(null))
                .hasMessage("s.yaml: no owner: set \"owner\" in the file or pass --owner");
    }

    @Test
    void theEnginesValidationErrorsArePlacedOnTheirLines() {
        String text = FULL.replace("168.119.17.51:2379\n", "168.119.17.51\n").replace("affinityTimeout: 10800", "affinityTimeout: 70000")
                .replace("team: infra", "ovnj.x: infra");
        List<DesiredState.SpecProblem> problems = DesiredStateReader.parse("s.yaml", text).problems("kube-dc");
        assertThat(problems).extracting(DesiredState.SpecProblem::message).containsExactlyInAnyOrder(
                "s.yaml:7: owner kube-dc, spec shalb-dev-etcd-lb, vips[0].vip: \"168.119.17.51\" needs a port (1..65535)",
                "s.yaml:11: owner kube-dc, spec shalb-dev-etcd-lb, options.affinityTimeout: 70000 is out of range 1..65535 seconds",
                "s.yaml:17: owner kube-dc, spec shalb-dev-etcd-lb, externalIds.ovnj.x: keys starting with ovnj. are reserved for the engine");
    }

    @Test
    void readsSourceRangesWithTheLibrarysRulesPlacedOnTheirLines() {
        String text = """
                owner: kube-dc
                loadBalancers:
                  - name: admin
                    routers: [shalb-dev]
                    vips:
                      - vip: 168.119.17.51:8443
                        backends: [10.1.0.50:8443]
                      - vip: "[2001:db8::51]:8443"
                        backends: ["[fd00::50]:8443"]
                    sourceRanges: [198.51.100.0/24, "2001:db8:1::/48"]
                  - name: bad
                    routers: [shalb-dev]
                    switches: [shalb-dev-default]
                    vips:
                      - vip: 168.119.17.52:80
                        backends: [10.1.0.51:80]
                    sourceRanges:
                      - 203.0.113.0/24
                      - 10.0.0.0/33
                      - 2001:db8::/48
                """;
        DesiredState s = DesiredStateReader.parse("s.yaml", text);
        assertThat(s.specs().get(0).sourceRanges()).containsExactly("198.51.100.0/24", "2001:db8:1::/48");
        assertThat(s.problems("kube-dc")).extracting(DesiredState.SpecProblem::message).containsExactlyInAnyOrder(
                "s.yaml:13: owner kube-dc, spec bad, switches: a spec with sourceRanges is attached to routers only: a switch's own"
                        + " load-balancing stage sends its ports' traffic to the backends before any router policy, whatever the source",
                "s.yaml:19: owner kube-dc, spec bad, sourceRanges[1]: \"10.0.0.0/33\" is not a network address/prefix such as"
                        + " 198.51.100.0/24 or 2001:db8::/48 (prefix length 33 is out of range for 10.0.0.0)",
                "s.yaml:20: owner kube-dc, spec bad, sourceRanges[2]: \"2001:db8::/48\" is IPv6 but every VIP of this spec is IPv4");
        // Left out: every client.
        assertThat(DesiredStateReader.parse("s.yaml", FULL).specs().get(0).sourceRanges()).isEmpty();
        assertThatThrownBy(() -> DesiredStateReader.parse("s.yaml", text.replace("sourceRanges: [198.51.100.0/24, \"2001:db8:1::/48\"]",
                "sourceRanges: 198.51.100.0/24")))
                .hasMessage("s.yaml:10: loadBalancers[0].sourceRanges must be a list, not a string");
    }
}
