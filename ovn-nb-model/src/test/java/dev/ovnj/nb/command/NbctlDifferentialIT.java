package dev.ovnj.nb.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.testkit.Command;
import dev.ovnj.testkit.OvnRelease;
import dev.ovnj.testkit.OvsdbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The same command lines through {@code ovn-nbctl} and through {@link NbctlCommandLine} on two fresh
 * Northbound databases of the release under test (OVNJ_RELEASE_ROOT): after every line the exit
 * codes, the outputs and the error messages must be equal (UUIDs mapped to the rows they name),
 * and after the scenario the whole databases must be equal row for row. The lines follow OVN's
 * tests/ovn-nbctl.at and include every refusal of the commands ovnj implements.
 */
class NbctlDifferentialIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    static List<Scenario> scenarios() {
        List<Scenario> s = new ArrayList<>();
        s.add(new Scenario("switches",
                "ls-add ls0", "ls-list", "ls-add ls0", "--may-exist ls-add ls0", "--add-duplicate ls-add ls0", "ls-list",
                "--may-exist --add-duplicate ls-add ls1", "--may-exist ls-add", "--add-duplicate ls-add", "ls-add",
                "ls-add ls1", "ls-del ls0", "ls-del ls9", "--if-exists ls-del ls9", "ls-del ls1", "ls-list",
                "ls-add a -- ls-add b -- ls-list"));
        s.add(new Scenario("switch ports",
                "ls-add ls0", "lsp-add ls0 lp0", "lsp-add ls0 lp0", "--may-exist lsp-add ls0 lp0", "lsp-add ls9 lp1",
                "lsp-add ls0 lp1 lp0", "lsp-add ls0 lp1 lp0 5000", "lsp-add ls0 lp1 lp0 x", "lsp-add ls0 lp1 lp0 42",
                "--may-exist lsp-add ls0 lp1 lp0 42", "--may-exist lsp-add ls0 lp1 lp0 43",
                "--may-exist lsp-add ls0 lp1 lpX 42", "--may-exist lsp-add ls0 lp1", "--may-exist lsp-add ls0 lp0 lp1 3",
                "ls-add ls1", "--may-exist lsp-add ls1 lp0", "lsp-list ls0", "lsp-list ls1", "lsp-list ls9",
                "lsp-del lp0", "lsp-del lp0", "--if-exists lsp-del lp0", "lsp-list ls0",
                "lsp-add ls1 p1 -- lsp-add ls1 p2 -- lsp-del p1 -- lsp-list ls1"));
        s.add(new Scenario("port settings",
                "ls-add ls0", "lsp-add ls0 lp0", "lsp-add ls0 lp1",
                "lsp-set-addresses lp0 '00:11:22:33:44:55 192.168.1.2' unknown router dynamic",
                "lsp-set-addresses lp1 '00:11:22:33:44:56 192.168.1.2'",
                "lsp-set-addresses lp1 '00:11:22:33:44:56 192.168.1.3' 'dynamic 192.168.1.9'",
                "lsp-set-addresses lp1 192.168.1.4", "lsp-set-addresses lp1 'xx 192.168.1.4'", "lsp-set-addresses lp9 unknown",
                "lsp-set-addresses lp0", "lsp-set-port-security lp0 '00:11:22:33:44:55 192.168.1.2/24'",
                "lsp-set-type lp0 localnet", "lsp-set-type lp0 bogus", "lsp-set-type lp0 ''", "lsp-set-type lp1 router",
                "lsp-set-options lp1 router-port=lrp0 nat-addresses=router junk", "lsp-set-options lp0",
                "lsp-set-enabled lp0 disabled", "lsp-set-enabled lp1 Enabled", "lsp-set-enabled lp1 maybe",
                "list Logical_Switch_Port", "--bare --columns=name,addresses,enabled list Logical_Switch_Port"));
        s.add(new Scenario("routers and router ports",
                "lr-add lr0", "lr-add lr0", "--may-exist lr-add lr0", "lr-add", "lr-list", "lr-del lr9", "--if-exists lr-del lr9",
                "lrp-add lr0 lrp0 00:00:00:01:02:03 192.168.1.1/24", "lrp-add lr0 lrp0 00:00:00:01:02:03 192.168.1.1/24",
                "--may-exist lrp-add lr0 lrp0 00:00:00:01:02:03 192.168.1.1/24",
                "--may-exist lrp-add lr0 lrp0 00:00:00:01:02:04 192.168.1.1/24",
                "--may-exist lrp-add lr0 lrp0 00:00:00:01:02:03 192.168.2.1/24",
                "--may-exist lrp-add lr0 lrp0 00:00:00:01:02:03 192.168.1.1/24 peer=lrp1",
                "lrp-add lr0 lrp1 00:00:00:01:02:05 10.0.0.1/24 2001:db8::1/64 peer=lrp0 enabled=false",
                "lrp-add lr0 lrp2 zz:00:00:01:02:05 10.0.0.1/24", "lrp-add lr0 lrp2 00:00:00:01:02:05 10.0.0.1",
                "lrp-add lr0 lrp2 00:00:00:01:02:05 peer=x", "lrp-add lr9 lrp2 00:00:00:01:02:05 10.0.0.1/24",
                "lrp-add lr0 lrp2 00:00:00:01:02:06 10.1.0.1/24 bogus=1",
                "lr-add lr1", "--may-exist lrp-add lr1 lrp0 00:00:00:01:02:03 192.168.1.1/24",
                "lrp-list lr0", "lrp-set-gateway-chassis lrp0 hv1 20", "lrp-set-gateway-chassis lrp0 hv2",
                "lrp-set-gateway-chassis lrp0 hv1 10", "lrp-set-gateway-chassis lrp0 hv3 99999",
                "lrp-set-gateway-chassis lrp9 hv1", "lrp-del-gateway-chassis lrp0 hv2", "lrp-del-gateway-chassis lrp0 hv9",
                "list Gateway_Chassis", "lrp-del lrp1", "lrp-del lrp1", "--if-exists lrp-del lrp1", "lrp-list lr0",
                "lr-del lr1", "lr-list"));
        s.add(new Scenario("NAT",
                "lr-add lr0", "ls-add ls0", "lsp-add ls0 vm1",
                "lr-nat-add lr0 snat 30.0.0.1 192.168.1.0/24", "lr-nat-add lr0 snat 30.0.0.1 192.168.1.0/24",
                "--may-exist lr-nat-add lr0 snat 30.0.0.1 192.168.1.0/24", "lr-nat-add lr0 snat 30.0.0.2 192.168.1.0/24",
                "lr-nat-add lr0 snat 30.0.0.1 192.168.2.7/24", "lr-nat-add lr0 dnat 30.0.0.3 192.168.1.3",
                "lr-nat-add lr0 dnat_and_snat 30.0.0.4 192.168.1.4 vm1 00:00:00:00:00:04",
                "lr-nat-add lr0 dnat_and_snat 30.0.0.5 192.168.1.5 vm9 00:00:00:00:00:05",
                "lr-nat-add lr0 dnat_and_snat 30.0.0.5 192.168.1.5 vm1 zz:00:00:00:00:05",
                "lr-nat-add lr0 snat 30.0.0.5 192.168.1.5 vm1 00:00:00:00:00:05", "lr-nat-add lr0 dnat_and_snat 30.0.0.5 192.168.1.5 vm1",
                "--stateless lr-nat-add lr0 dnat_and_snat 30.0.0.6 192.168.1.6", "--stateless lr-nat-add lr0 snat 30.0.0.7 192.168.1.0/24",
                "lr-nat-add lr0 dnat_and_snat 30.0.0.6 192.168.1.8", "lr-nat-add lr0 foo 30.0.0.7 192.168.1.7",
                "lr-nat-add lr0 dnat 30.0.0.999 192.168.1.7", "lr-nat-add lr0 dnat 30.0.0.7 192.168.1.0/24",
                "lr-nat-add lr0 snat 30.0.0.7 192.168.1.0/33", "lr-nat-add lr0 dnat fd01::1 192.168.1.7",
                "lr-nat-add lr0 dnat_and_snat fd01::1 fd11::1", "lr-nat-add lr9 dnat 30.0.0.8 192.168.1.8",
                "lr-nat-list lr0", "lr-nat-del lr0 dnat 30.0.0.3", "lr-nat-del lr0 snat 192.168.1.0/24", "lr-nat-del lr0 bogus",
                "lr-nat-del lr0 dnat 30.0.0.1 lrp9", "lr-nat-list lr0", "lr-nat-del lr0 dnat_and_snat", "lr-nat-list lr0",
                "lr-nat-del lr0", "lr-nat-list lr0", "list NAT"));
        s.add(new Scenario("static routes",
                "lr-add lr0", "lrp-add lr0 lp0 00:00:00:00:00:01 192.168.0.1/24",
                "lr-route-add lr0 0.0.0.0/0 192.168.0.1", "lr-route-add lr0 10.0.1.7/24 192.168.0.2 lp0",
                "lr-route-add lr0 10.0.1.0/24 192.168.0.3", "--may-exist lr-route-add lr0 10.0.1.0/24 192.168.0.3",
                "--ecmp lr-route-add lr0 10.0.1.0/24 192.168.0.4", "--ecmp lr-route-add lr0 10.0.1.0/24 192.168.0.4",
                "--may-exist --ecmp lr-route-add lr0 10.0.1.0/24 192.168.0.4",
                "--ecmp-symmetric-reply lr-route-add lr0 10.0.2.0/24 192.168.0.5",
                "--policy=src-ip lr-route-add lr0 192.168.0.0/24 11.0.0.1", "--policy=bogus lr-route-add lr0 1.0.0.0/8 11.0.0.1",
                "lr-route-add lr0 10.0.3.0/24 lp0", "lr-route-add lr0 10.0.4.0/24 lp9", "lr-route-add lr0 bogus 11.0.0.1",
                "lr-route-add lr0 10.0.5.0/24 11.0.0.1 lp9", "lr-route-add lr0 10.0.6.0/24 discard",
                "--ecmp lr-route-add lr0 10.0.6.0/24 discard", "lr-route-add lr0 10.0.6.0/24 discard lp0",
                "--ecmp lr-route-add lr0 10.0.6.0/24 11.0.0.9", "lr-route-add lr0 2001:db8::/64 2001:db8:0:f101::1",
                "lr-route-add lr0 2001:db8:1::7/64 2001:db8:0:f101::2", "lr-route-add lr0 2001:db8::/64 10.0.0.1",
                "lr-route-list lr0", "lr-route-del lr0 10.0.1.0/24 192.168.0.3", "lr-route-del lr0 10.0.1.0/24 192.168.0.3",
                "--if-exists lr-route-del lr0 10.0.1.0/24 192.168.0.3", "lr-route-del lr0 bogus",
                "lr-route-del lr0 10.0.3.0/24 bogus", "--policy=src-ip lr-route-del lr0", "lr-route-list lr0",
                "lr-route-del lr0 10.0.1.0/24", "lr-route-list lr0", "lr-route-del lr0", "lr-route-list lr0"));
        s.add(new Scenario("routing policies",
                "lr-add lr0", "lr-policy-add lr0 100 'ip4.src == 10.0.0.0/24' drop",
                "lr-policy-add lr0 100 'ip4.src == 10.0.0.0/24' allow", "--may-exist lr-policy-add lr0 100 'ip4.src == 10.0.0.0/24' allow",
                "lr-policy-add lr0 200 'ip4.dst == 1.1.1.1' reroute 192.168.1.1,192.168.1.2 pkt_mark=5",
                "lr-policy-add lr0 201 'ip4.dst == 1.1.1.2' reroute", "lr-policy-add lr0 202 'ip4.dst == 1.1.1.3' reroute bogus",
                "lr-policy-add lr0 203 'ip4.dst == 1.1.1.4' reroute 192.168.1.1,fd00::1",
                "lr-policy-add lr0 204 'ip4.dst == 1.1.1.5' allow pkt_mark", "lr-policy-add lr0 205 ip4 forward",
                "lr-policy-add lr0 99999 ip4 allow", "lr-policy-add lr9 1 ip4 allow", "lr-policy-add lr0 300 ip6 allow",
                "lr-policy-add lr0 300 udp allow", "list Logical_Router_Policy", "lr-policy-del lr0 300 udp",
                "lr-policy-del lr0 300 nomatch", "lr-policy-del lr0 100", "lr-policy-del lr0 4b8d0bb6-4d0f-4e8e-8d59-1b5a6e0c0c11",
                "--if-exists lr-policy-del lr0 4b8d0bb6-4d0f-4e8e-8d59-1b5a6e0c0c11", "lr-policy-del lr0 bogus",
                "list Logical_Router_Policy", "lr-policy-del lr0", "list Logical_Router_Policy"));
        s.add(new Scenario("ACLs",
                "ls-add ls0", "pg-add pg0", "acl-add ls0 from-lport 600 udp drop", "acl-add ls0 to-lport 500 udp drop",
                "--log --severity=alert --name=web acl-add ls0 from-lport 400 tcp allow-related",
                "--name=n1 acl-add ls0 to-lport 300 ip4 allow", "--severity=info acl-add ls0 to-lport 301 ip4 allow",
                "--severity=bogus acl-add ls0 to-lport 302 ip4 allow", "acl-add ls0 from-lport 600 udp drop",
                "--may-exist acl-add ls0 from-lport 600 udp drop", "acl-add ls0 sideways 600 udp drop",
                "acl-add ls0 from-lport 70000 udp drop", "acl-add ls0 from-lport 1 udp permit",
                "--apply-after-lb acl-add ls0 from-lport 600 udp drop", "acl-add pg0 to-lport 100 outport==@pg0 drop",
                "acl-add nothing to-lport 100 ip drop", "--type=switch acl-add pg0 to-lport 100 ip drop",
                "--type=port-group acl-add ls0 to-lport 100 ip drop", "--type=bogus acl-add ls0 to-lport 100 ip drop",
                "acl-list ls0", "acl-list pg0", "acl-del ls0 to-lport 500", "acl-del ls0 to-lport 500 udp",
                "acl-del ls0 to-lport 500 tcp", "acl-list ls0", "acl-del ls0 to-lport", "acl-list ls0",
                "acl-del ls0", "acl-list ls0", "acl-del pg0", "acl-list pg0", "ls-add same -- pg-add same",
                "acl-add same to-lport 1 ip drop"));
        s.add(new Scenario("port groups",
                "ls-add ls0", "lsp-add ls0 p1", "lsp-add ls0 p2", "pg-add pg1 p1 p2", "pg-add pg2", "pg-add pg3 p9",
                "pg-set-ports pg2 p1", "pg-set-ports pg9 p1", "pg-set-ports pg2 p9", "list Port_Group", "pg-del pg1",
                "pg-del pg1", "pg-add pg2", "--columns=name,ports list Port_Group"));
        s.add(new Scenario("load balancers",
                "lb-add lb0 30.0.0.10:80 192.168.10.10:80,192.168.10.20:80",
                "lb-add lb0 30.0.0.10:80 192.168.10.10:80", "--may-exist lb-add lb0 30.0.0.10:80 192.168.10.30:80",
                "lb-add lb0 30.0.0.11:80 192.168.10.10:80 udp", "lb-add lb1 30.0.0.12 192.168.10.10,192.168.10.11",
                "lb-add lb1 30.0.0.13 192.168.10.10 tcp", "lb-add lb2 30.0.0.14:80 192.168.10.10",
                "lb-add lb2 30.0.0.14 192.168.10.10:80", "lb-add lb2 bogus 192.168.10.10", "lb-add lb2 30.0.0.14:80 fd00::1:80",
                "lb-add lb2 [fd00::1]:80 [fd00::2]:8080,[fd00::3]:8080", "lb-add lb3 30.0.0.15:80 192.168.10.10:80 icmp",
                "--reject lb-add lb4 30.0.0.16:53 192.168.10.10:53 udp", "lb-list", "lb-list lb0",
                "lb-del lb0 30.0.0.11:80", "lb-del lb0 30.0.0.99:80", "--if-exists lb-del lb0 30.0.0.99:80",
                "lb-del lb9", "ls-add ls0", "lr-add lr0", "ls-lb-add ls0 lb0", "ls-lb-add ls0 lb0",
                "--may-exist ls-lb-add ls0 lb0", "ls-lb-add ls0 lb9", "ls-lb-add ls9 lb0", "ls-lb-list ls0",
                "lr-lb-add lr0 lb1", "lr-lb-add lr0 lb1", "lr-lb-add lr0 lb2", "lr-lb-list lr0",
                "ls-lb-del ls0 lb1", "--if-exists ls-lb-del ls0 lb1", "ls-lb-del ls0 lb0", "lr-lb-del lr0 lb1",
                "lr-lb-del lr0", "lb-del lb2 [fd00::1]:80", "lb-del lb1", "lb-list"));
        s.add(new Scenario("database commands",
                "ls-add ls0", "create Logical_Switch name=ls1 other_config:subnet=10.0.0.0/24",
                "--id=@p create Logical_Switch_Port name=p1 -- add Logical_Switch ls0 ports @p",
                "get Logical_Switch ls0 name ports", "get Logical_Switch ls9 name", "--if-exists get Logical_Switch ls9 name",
                "get Logical_Switch ls1 other_config:subnet", "get Logical_Switch ls1 other_config:nope",
                "--if-exists get Logical_Switch ls1 other_config:nope", "--bare get Logical_Switch ls1 other_config",
                "set Logical_Switch ls0 external_ids:owner=me other_config:a=b:c", "set Logical_Switch ls0 bogus=1",
                "set Logical_Switch ls0 name:x=1", "set Logical_Switch ls9 name=x", "--if-exists set Logical_Switch ls9 name=x",
                "set Logical_Switch_Port p1 'addresses=\"00:00:00:00:00:01 10.0.0.1\"' enabled=false",
                "set Logical_Switch_Port p1 addresses=00:00:00:00:00:01", "set Logical_Switch_Port p1 tag_request=5000",
                "set Logical_Switch_Port p1 enabled=maybe", "add Logical_Switch ls0 external_ids a=1 b=2",
                "add Logical_Switch_Port p1 addresses router unknown", "remove Logical_Switch ls0 external_ids a owner=other",
                "remove Logical_Switch_Port p1 addresses router", "clear Logical_Switch_Port p1 addresses",
                "clear Logical_Switch_Port p1 type", "list Logical_Switch", "list Logical_Switch ls0",
                "--columns=name,external_ids list Logical_Switch", "--bare --columns=name find Logical_Switch name=ls1",
                "--columns=name find Logical_Switch external_ids:b=2", "find Logical_Switch_Port enabled=false",
                "--format=table --columns=name,other_config list Logical_Switch",
                "--format=csv --columns=name,external_ids list Logical_Switch",
                "--format=json --columns=name,ports list Logical_Switch ls0",
                "--no-headings --columns=name,ports list Logical_Switch", "list Bogus", "list Logical_Switch ls9",
                "add Logical_Switch ls0 ports @nope", "destroy Logical_Switch ls1", "destroy Logical_Switch ls1",
                "--if-exists destroy Logical_Switch ls1", "--all destroy Logical_Switch", "ls-list"));
        s.add(new Scenario("more",
                "--add-duplicate ls-add dup", "--add-duplicate ls-add dup", "ls-del dup", "lsp-add dup p0",
                "ls-add sw0", "lsp-add sw0 parent", "lsp-add sw0 child parent 7", "--columns=name,parent_name,tag_request list Logical_Switch_Port child",
                "lsp-set-addresses parent dynamic", "lsp-set-addresses child 'dynamic 10.0.0.9'",
                "lr-add lr0", "lrp-add lr0 gw 00:00:00:00:00:aa 172.16.0.1/24", "lrp-set-gateway-chassis gw hv1 5",
                "lrp-add lr0 gw2 00:00:00:00:00:ab 172.17.0.1/24", "lrp-set-gateway-chassis gw2 hv2",
                "lr-nat-add lr0 dnat_and_snat 172.18.0.5 10.0.0.5",
                "--gateway-port=gw lr-nat-add lr0 dnat_and_snat 172.16.0.5 10.0.0.5",
                "--gateway-port=lrp9 lr-nat-add lr0 snat 172.16.0.6 10.0.0.0/24", "lr-nat-add lr0 snat 172.16.0.7 10.0.1.0/24",
                "lr-nat-list lr0", "--label=5 acl-add sw0 to-lport 10 ip allow", "--label=5 acl-add sw0 to-lport 11 ip drop",
                "--label=-1 acl-add sw0 to-lport 12 ip allow", "--meter=m1 acl-add sw0 to-lport 13 ip allow", "acl-list sw0",
                "--route-table=rtb1 lr-route-add lr0 10.9.0.0/16 172.16.0.254", "lr-route-add lr0 10.9.0.0/16 172.16.0.253",
                "lr-route-list lr0", "--route-table=rtb1 lr-route-list lr0", "--route-table=rtb1 lr-route-del lr0 10.9.0.0/16",
                "lb-add lbA 10.0.0.100:80 10.0.1.1:80,10.0.1.2:80", "lb-add lbA 10.0.0.101:8080 10.0.1.1:8080",
                "lb-add lbB 10.0.0.102 10.0.1.3", "lb-list", "--format=table --columns=name,vips find Load_Balancer name=lbA",
                "create ACL direction=to-lport priority=1 match=ip action=drop", "list ACL",
                "destroy Logical_Switch_Port child", "lsp-list sw0", "remove Logical_Router_Port gw networks 172.16.0.1/24",
                "lsp-set-type parent virtual", "--bare --columns=type find Logical_Switch_Port name=parent",
                "get NB_Global . options", "set NB_Global . options:mac_prefix=0a:00:00"));
        s.add(new Scenario("port getters",
                "ls-add sw0", "lsp-add sw0 p1", "lsp-add sw0 c1 p1 9", "lr-add lr0",
                "lrp-add lr0 lrp0 00:00:00:00:00:01 10.0.0.1/24 2001:db8::1/64", "lsp-add sw0 rp",
                "lsp-set-addresses p1 '00:00:00:00:00:02 10.0.0.2' unknown", "lsp-set-port-security p1 '00:00:00:00:00:02 10.0.0.2'",
                "lsp-set-type rp router", "lsp-set-options rp router-port=lrp0", "lsp-set-addresses rp router",
                "lsp-get-addresses p1", "lsp-get-addresses rp", "lsp-get-port-security p1", "lsp-get-parent c1",
                "lsp-get-parent p1", "lsp-get-tag c1", "lsp-get-up p1", "lsp-get-enabled p1", "lsp-set-enabled p1 disabled",
                "lsp-get-enabled p1", "lsp-get-type rp", "lsp-get-options rp", "lsp-get-type nosuch",
                "lrp-set-gateway-chassis lrp0 hv1 10", "lrp-set-gateway-chassis lrp0 hv2 20", "lrp-set-gateway-chassis lrp0 hv3 20",
                "lrp-get-gateway-chassis lrp0"));
        return s;
    }

    /** A named list of command lines, each one ovn-nbctl invocation. */
    record Scenario(String name, String... lines) {
    }

    @TestFactory
    Stream<DynamicTest> sameAsOvnNbctl() {
        return scenarios().stream().map(s -> DynamicTest.dynamicTest(s.name() + " (" + OvnRelease.current() + ")",
                () -> run(s)));
    }

    private static final java.util.regex.Pattern LOG_LINE = java.util.regex.Pattern.compile(
            "(?m)^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\|\\d+\\|[^|]*\\|[A-Z]+\\|.*\\n");
    private static final java.util.regex.Pattern UUID_SET = java.util.regex.Pattern.compile("\\[(<[^\\]]*)\\]");

    /**
     * What may differ between two correct runs is made equal: log lines (timestamps), the order of
     * UUIDs in a printed set (it follows the UUIDs' values) and the order of {@code list}/{@code find}
     * records (ovn-nbctl prints them in its hash order of UUIDs).
     */
    static String canonical(String text, boolean records) {
        String t = LOG_LINE.matcher(text).replaceAll("");
        java.util.regex.Matcher m = UUID_SET.matcher(t);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            List<String> items = new ArrayList<>(List.of(m.group(1).split(", ")));
            items.sort(null);
            m.appendReplacement(b, java.util.regex.Matcher.quoteReplacement("[" + String.join(", ", items) + "]"));
        }
        m.appendTail(b);
        t = b.toString();
        if (records) {
            boolean newline = t.endsWith("\n");
            t = newline ? t.substring(0, t.length() - 1) : t;
            List<String> blocks = new ArrayList<>(List.of(t.split("\n\n")));
            if (blocks.size() == 1) {
                blocks = new ArrayList<>(List.of(t.split("\n")));
            }
            blocks.sort(null);
            t = String.join("\n\n", blocks) + (newline ? "\n" : "");
        }
        return t;
    }

    private static void run(Scenario scenario) {
        try (OvsdbServer real = OvsdbServer.start(); OvsdbServer ours = OvsdbServer.start();
                OvsdbClient client = OvsdbClient.builder().remotes(ours.remote()).build().startAndWait(WAIT)) {
            for (String line : scenario.lines()) {
                List<String> argv = CommandLines.split(line);
                List<String> nbctl = new ArrayList<>(List.of("ovn-nbctl", "--db=" + real.remote(), "--timeout=20"));
                nbctl.addAll(argv);
                Command.Result expected = Command.of(nbctl).timeout(Duration.ofSeconds(30)).run();
                NbctlCommandLine.Result actual;
                try {
                    actual = NbctlCommandLine.run(client, NbctlCommandLine.parse(argv), WAIT);
                } catch (NbctlException e) {
                    actual = new NbctlCommandLine.Result(1, "", "ovn-nbctl: " + e.getMessage() + "\n");
                }
                try (DatabaseImage left = DatabaseImage.read(real.remote()); DatabaseImage right = DatabaseImage.read(ours.remote())) {
                    String where = scenario.name() + ": " + line;
                    assertThat(actual.exitCode()).as(where + " exit code; ovn-nbctl said " + expected.stderr())
                            .isEqualTo(expected.exitCode());
                    boolean records = argv.contains("list") || argv.contains("find") || argv.contains("lr-nat-list");
                    assertThat(canonical(right.normalize(actual.stderr()), false)).as(where + " stderr")
                            .isEqualTo(canonical(left.normalize(expected.stderr()), false));
                    assertThat(canonical(right.normalize(actual.stdout()), records)).as(where + " stdout")
                            .isEqualTo(canonical(left.normalize(expected.stdout()), records));
                    assertThat(right.rows()).as(where + " database").isEqualTo(left.rows());
                }
            }
        }
    }
}
