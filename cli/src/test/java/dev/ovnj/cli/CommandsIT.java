package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.junit.OvsdbTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** reconcile, diff and status, run as the packaged jar against a real ovsdb-server, checked with ovn-nbctl. */
@OvsdbTest
class CommandsIT {
    static final String STATE = """
            owner: kube-dc
            loadBalancers:
              - name: shalb-dev-etcd-lb
                routers: [shalb-dev]
                switches: [shalb-dev-default]
                vips:
                  - vip: 168.119.17.51:2379
                    backends: [10.1.0.40:2379, 10.1.0.41:2379]
              - name: shalb-dev-dns
                routers: [shalb-dev]
                vips:
                  - vip: 168.119.17.51:53
                    protocol: udp
                    backends: [10.1.0.20:53]
                options:
                  affinityTimeout: 600
            """;

    @TempDir
    Path dir;

    static Nbctl seeded(OvsdbServer server) {
        Nbctl nbctl = Nbctl.of(server);
        nbctl.run("lr-add", "shalb-dev");
        nbctl.run("lrp-add", "shalb-dev", "shalb-dev-ext", "02:00:00:00:00:01", "168.119.17.51/28");
        nbctl.run("ls-add", "shalb-dev-default");
        return nbctl;
    }

    Path write(String name, String text) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    @Test
    void reconcileWritesTheRowsAndDiffGoesFromPendingToInSync(OvsdbServer server) throws Exception {
        Nbctl nbctl = seeded(server);
        Path file = write("state.yaml", STATE);

        OvnjProcess.Result before = OvnjProcess.run("diff", "--db", server.remote(), "--file", file.toString());
        assertThat(before.exit()).as(before.toString()).isEqualTo(1);
        assertThat(before.out()).contains("plan for owner kube-dc: ").contains("+ create shalb-dev-etcd-lb-tcp");

        OvnjProcess.Result r = OvnjProcess.run("reconcile", "--db", server.remote(), "--file", file.toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("owner kube-dc: 2 applied");
        assertThat(nbctl.run("lr-lb-list", "shalb-dev")).contains("168.119.17.51:2379").contains("10.1.0.40:2379,10.1.0.41:2379")
                .contains("udp").contains("10.1.0.20:53");
        assertThat(nbctl.run("ls-lb-list", "shalb-dev-default")).contains("168.119.17.51:2379").doesNotContain(":53");
        assertThat(nbctl.run("get", "Load_Balancer", "shalb-dev-dns-udp", "options:affinity_timeout")).isEqualTo("\"600\"");

        OvnjProcess.Result after = OvnjProcess.run("diff", "--db", server.remote(), "--file", file.toString());
        assertThat(after.exit()).as(after.toString()).isZero();
        assertThat(after.out()).contains("plan for owner kube-dc: in sync");
    }

    @Test
    void aLoadBalancerOfAnotherToolIsAConflictUntilAdoptedInPlace(OvsdbServer server) throws Exception {
        Nbctl nbctl = seeded(server);
        nbctl.run("lb-add", "kube-etcd", "168.119.17.51:2379", "10.1.0.40:2379", "tcp");
        nbctl.run("set", "Load_Balancer", "kube-etcd", "external_ids:vendor=kube-ovn");
        nbctl.run("lr-lb-add", "shalb-dev", "kube-etcd");
        nbctl.run("ls-lb-add", "shalb-dev-default", "kube-etcd");
        String uuid = nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=kube-etcd").strip();
        String before = nbctl.run("list", "Load_Balancer", "kube-etcd");
        Path file = write("state.yaml", STATE);

        OvnjProcess.Result refused = OvnjProcess.run("reconcile", "--db", server.remote(), "--file", file.toString());
        assertThat(refused.exit()).as(refused.toString()).isEqualTo(ReconcileCommand.CONFLICT);
        assertThat(nbctl.run("list", "Load_Balancer", "kube-etcd")).isEqualTo(before);

        OvnjProcess.Result plan = OvnjProcess.run("diff", "--db", server.remote(), "--file", file.toString(), "--adopt", "kube-etcd",
                "--output", "json");
        assertThat(plan.exit()).as(plan.toString()).isEqualTo(1);
        com.fasterxml.jackson.databind.JsonNode changes = new com.fasterxml.jackson.databind.ObjectMapper().readTree(plan.out())
                .path("changes");
        assertThat(changes.get(0).path("type").asText()).isEqualTo("adopt");
        assertThat(changes.get(0).path("text").asText()).isEqualTo("& adopt load balancer kube-etcd (uuid " + uuid
                + ", no ovnj.owner) as shalb-dev-etcd-lb-tcp");
        assertThat(nbctl.run("list", "Load_Balancer", "kube-etcd")).as("diff writes nothing").isEqualTo(before);

        OvnjProcess.Result adopted = OvnjProcess.run("reconcile", "--db", server.remote(), "--file", file.toString(), "--adopt", "unowned");
        assertThat(adopted.exit()).as(adopted.toString()).isZero();
        assertThat(nbctl.run("--bare", "--columns=_uuid", "find", "Load_Balancer", "name=shalb-dev-etcd-lb-tcp").strip()).isEqualTo(uuid);
        assertThat(nbctl.run("get", "Load_Balancer", uuid, "vips")).contains("10.1.0.40:2379,10.1.0.41:2379");
        assertThat(nbctl.run("lr-lb-list", "shalb-dev")).contains(uuid);
        assertThat(nbctl.run("ls-lb-list", "shalb-dev-default")).contains(uuid);
    }

    @Test
    void anUnreachableDatabaseIsOneLineAndExitTwo() throws Exception {
        Path file = write("state.yaml", STATE);
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String nowhere = "tcp:127.0.0.1:" + port;
        long start = System.nanoTime();
        OvnjProcess.Result r = OvnjProcess.run("diff", "--db", nowhere, "--file", file.toString(), "--timeout", "1");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().lines()).singleElement().asString()
                .startsWith("cannot reach the OVN Northbound database at " + nowhere + " within 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
        assertThat(r.out()).isEmpty();
    }

    @Test
    void invalidFilesNameTheFieldAndLineAndWriteNothing(OvsdbServer server) throws Exception {
        Nbctl nbctl = seeded(server);
        Path unknown = write("unknown.yaml", STATE.replace("- vip: 168.119.17.51:53", "- vipz: 168.119.17.51:53"));
        OvnjProcess.Result r = OvnjProcess.run("reconcile", "--db", server.remote(), "--file", unknown.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).isEqualTo(unknown + ":12: unknown field \"vipz\" in loadBalancers[1].vips[0]");

        Path protocol = write("protocol.yaml", STATE.replace("protocol: udp", "protocol: udpp"));
        r = OvnjProcess.run("reconcile", "--db", server.remote(), "--file", protocol.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).isEqualTo(protocol + ":13: loadBalancers[1].vips[0].protocol: \"udpp\" is not one of tcp, udp, sctp");
        assertThat(nbctl.run("--bare", "--columns=name", "list", "Load_Balancer")).isEmpty();

        // A bad VIP makes only its spec invalid: the other is applied, the bad one not written.
        Path vip = write("vip.yaml", STATE.replace("168.119.17.51:53", "168.119.17.351:53"));
        r = OvnjProcess.run("reconcile", "--db", server.remote(), "--file", vip.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).isEqualTo(vip + ":12: owner kube-dc, spec shalb-dev-dns, vips[0].vip: "
                + "\"168.119.17.351:53\": \"168.119.17.351\" is not an IPv4 address");
        assertThat(r.out()).contains("owner kube-dc: 1 applied, 1 invalid, not written");
        assertThat(nbctl.run("--bare", "--columns=name", "list", "Load_Balancer")).isEqualTo("shalb-dev-etcd-lb-tcp");
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void anInvalidSpecKeepsWhatTheDatabaseHasForIt(OvsdbServer server) throws Exception {
        Nbctl nbctl = seeded(server);
        assertThat(OvnjProcess.run("reconcile", "--db", server.remote(), "--file", write("ok.yaml", STATE).toString()).exit()).isZero();
        String before = nbctl.run("get", "Load_Balancer", "shalb-dev-dns-udp", "vips");

        Path bad = write("bad.yaml", STATE.replace("backends: [10.1.0.20:53]", "backends: [10.1.0.20]")
                .replace("10.1.0.41:2379", "10.1.0.42:2379"));
        OvnjProcess.Result r = OvnjProcess.run("reconcile", "--db", server.remote(), "--file", bad.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("bad.yaml:14: owner kube-dc, spec shalb-dev-dns, vips[0].backends[0]");
        assertThat(r.out()).contains("1 invalid, not written (the database keeps what it has for them)");
        assertThat(nbctl.run("get", "Load_Balancer", "shalb-dev-dns-udp", "vips")).isEqualTo(before);
        assertThat(nbctl.run("get", "Load_Balancer", "shalb-dev-etcd-lb-tcp", "vips")).contains("10.1.0.42:2379");
    }

    @Test
    void statusShowsVipsBackendsAttachmentsAndProblems(OvsdbServer server) throws Exception {
        seeded(server);
        Path file = write("state.yaml", """
                owner: kube-dc
                loadBalancers:
                  - name: shalb-dev-etcd-lb
                    routers: [shalb-dev]
                    switches: [shalb-dev-default]
                    vips:
                      - vip: 168.119.17.51:2379
                        backends: [10.1.0.40:2379, 10.1.0.41:2379]
                  - name: outside
                    routers: [shalb-dev]
                    vips:
                      - vip: 192.0.2.10:80
                        backends: [10.1.0.50:80]
                  - name: lost
                    routers: [shalb-gone]
                    vips:
                      - vip: 168.119.17.52:80
                        backends: [10.1.0.60:80]
                """);
        OvnjProcess.Result applied = OvnjProcess.run("reconcile", "--db", server.remote(), "--file", file.toString());
        assertThat(applied.exit()).as(applied.toString()).isEqualTo(1);
        assertThat(applied.out()).contains("lost pending: router shalb-gone does not exist yet");

        OvnjProcess.Result r = OvnjProcess.run("status", "--db", server.remote(), "--owner", "kube-dc", "--file", file.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("owner kube-dc")
                .contains("  shalb-dev-etcd-lb-tcp (spec shalb-dev-etcd-lb, tcp)")
                .contains("    168.119.17.51:2379 -> 10.1.0.40:2379,10.1.0.41:2379")
                .contains("    routers: shalb-dev  switches: shalb-dev-default  groups: -")
                .contains("    problem: VIP 192.0.2.10:80 is in no network of router shalb-dev (168.119.17.51/28)")
                .contains("problem: spec lost is pending: router shalb-gone does not exist yet");
        assertThat(r.out().lines().filter(l -> l.contains("problem:"))).hasSize(2);

        OvnjProcess.Result all = OvnjProcess.run("status", "--db", server.remote());
        assertThat(all.out()).contains("  lost-tcp (spec lost, tcp)").contains("    routers: -  switches: -  groups: -")
                .doesNotContain("shalb-gone");
        OvnjProcess.Result other = OvnjProcess.run("status", "--db", server.remote(), "--owner", "nobody");
        assertThat(other.exit()).isZero();
        assertThat(other.out()).isEqualTo("no load balancers owned by nobody");
    }

    @Test
    void watchRepairsDriftFollowsTheFileAndStopsCleanlyOnSigterm(OvsdbServer server) throws Exception {
        Nbctl nbctl = seeded(server);
        Path file = write("state.yaml", STATE);
        try (OvnjProcess p = OvnjProcess.start("reconcile", "--watch", "--db", server.remote(), "--file", file.toString())) {
            Await.until(Duration.ofSeconds(20), "watching", () -> p.stdout().stream().anyMatch(l -> l.startsWith("watching ")));

            long start = System.nanoTime();
            nbctl.run("lb-del", "shalb-dev-etcd-lb-tcp");
            Await.until(Duration.ofSeconds(5), "repair line", () -> p.stdout().stream()
                    .anyMatch(l -> l.matches("repaired shalb-dev-etcd-lb-tcp \\(recreated.*\\) in \\d+\\.\\d ms")));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(nbctl.run("lr-lb-list", "shalb-dev")).contains("168.119.17.51:2379");

            Files.writeString(file, STATE.replace("10.1.0.20:53", "10.1.0.29:53"));
            Await.until(Duration.ofSeconds(10), "file change applied",
                    () -> nbctl.run("get", "Load_Balancer", "shalb-dev-dns-udp", "vips").contains("10.1.0.29:53"));

            Files.writeString(file, STATE.replace("vips:", "vipz:"));
            Await.until(Duration.ofSeconds(10), "invalid file reported",
                    () -> p.stderr().stream().anyMatch(l -> l.contains("keeping the previous state")));
            p.terminate();
            OvnjProcess.Result r = p.await(Duration.ofSeconds(15));
            assertThat(r.exit()).as(r.toString()).isZero();
            assertThat(r.err()).contains("state.yaml:6: unknown field \"vipz\" in loadBalancers[0] (keeping the previous state)");
            assertThat(r.out()).endsWith("stopped");
            assertThat(nbctl.run("--bare", "--columns=name", "list", "Load_Balancer").lines().filter(l -> !l.isBlank()).sorted().toList())
                    .containsExactly("shalb-dev-dns-udp", "shalb-dev-etcd-lb-tcp");
        }
    }
}
