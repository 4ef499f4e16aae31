package dev.ovnj.nb.eip;

import dev.ovnj.nb.ip.IpAddresses;
import dev.ovnj.nb.ip.IpFamily;
import static dev.ovnj.nb.eip.EipTopology.EXT6_PORT;
import static dev.ovnj.nb.eip.EipTopology.EXT_PORT;
import static dev.ovnj.nb.eip.EipTopology.ROUTER;
import static dev.ovnj.nb.eip.EipTopology.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.tx.Operations;
import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link EipAllocator} on the seed topology, each test on a fresh database; claims are checked
 * with ovn-nbctl, not through ovnj.
 */
class EipAllocatorIT {
    private static final Pattern CLAIM = Pattern.compile("\"?ovnj\\.eip\\.([0-9a-fA-F.:]+)\"?=\"?([^\",}]*)\"?");

    private OvsdbServer server;
    private final List<OvsdbClient> clients = new ArrayList<>();

    @BeforeEach
    void start() {
        server = OvsdbServer.start();
        EipTopology.seed(server);
    }

    @AfterEach
    void stop() {
        clients.forEach(OvsdbClient::close);
        if (server != null) {
            server.close();
        }
    }

    private OvsdbClient connect() {
        OvsdbClient c = EipTopology.connect(server);
        clients.add(c);
        return c;
    }

    private static InetAddress ip(String text) {
        return IpAddresses.parse(text);
    }

    private static List<InetAddress> ips(String... texts) {
        return Arrays.stream(texts).map(EipAllocatorIT::ip).toList();
    }

    /** The claims on a port as ovn-nbctl reads them: address to owner. */
    private Map<InetAddress, String> claimsByNbctl(String port) {
        String externalIds = Nbctl.of(server).run("get", "Logical_Router_Port", port, "external_ids");
        Map<InetAddress, String> claims = new HashMap<>();
        Matcher m = CLAIM.matcher(externalIds);
        while (m.find()) {
            assertThat(claims.put(ip(m.group(1)), m.group(2))).as("claim of %s recorded once", m.group(1)).isNull();
        }
        return claims;
    }

    @Test
    void handsOutOnlyFreeAddressesUntilTheNetworkIsExhausted() {
        OvsdbClient client = connect();
        EipAllocator allocator = new EipAllocator(client);
        List<InetAddress> handedOut = new ArrayList<>();
        Throwable exhausted = null;
        while (exhausted == null && handedOut.size() < 20) {
            EipRequest request = EipRequest.of(EXT_PORT, "kube-dc/shalb-dev/lb-" + handedOut.size())
                    .excluding("168.119.17.56..168.119.17.58", "168.119.17.62");
            try {
                handedOut.add(allocator.allocateAndWait(request, WAIT));
            } catch (EipExhaustedException e) {
                exhausted = e;
            }
        }

        // Not .48 (network), .63 (broadcast), .51 (port), .53/.55 (VIPs), .60 (FIP), .56-.58/.62 (excluded).
        assertThat(handedOut).containsExactlyElementsOf(ips("168.119.17.49", "168.119.17.50", "168.119.17.52",
                "168.119.17.54", "168.119.17.59", "168.119.17.61"));
        assertThat(exhausted).hasMessageContaining("168.119.17.48/28").hasMessageContaining(EXT_PORT);
        Map<InetAddress, String> recorded = claimsByNbctl(EXT_PORT);
        assertThat(recorded.keySet()).containsExactlyInAnyOrderElementsOf(handedOut);
        assertThat(recorded.values()).containsExactlyInAnyOrder("kube-dc/shalb-dev/lb-0", "kube-dc/shalb-dev/lb-1",
                "kube-dc/shalb-dev/lb-2", "kube-dc/shalb-dev/lb-3", "kube-dc/shalb-dev/lb-4", "kube-dc/shalb-dev/lb-5");
        assertThat(allocator.retries()).isZero();

        EipRealization claimed = new EipView(client).realization("168.119.17.49");
        assertThat(claimed.claims()).containsExactly(new EipClaim(ip("168.119.17.49"), "kube-dc/shalb-dev/lb-0", ROUTER, EXT_PORT));
        assertThat(claimed.isUnused()).isFalse();
    }

    @Test
    void releaseFreesTheAddressForTheNextAllocation() {
        EipAllocator allocator = new EipAllocator(connect());
        EipRequest a = EipRequest.of(EXT_PORT, "owner-a");
        assertThat(allocator.allocateAndWait(a, WAIT)).isEqualTo(ip("168.119.17.49"));
        assertThat(allocator.allocateAndWait(EipRequest.of(EXT_PORT, "owner-b"), WAIT)).isEqualTo(ip("168.119.17.50"));

        assertThat(allocator.releaseAndWait("168.119.17.49", WAIT)).isTrue();

        assertThat(claimsByNbctl(EXT_PORT)).containsOnlyKeys(ip("168.119.17.50"));
        assertThat(allocator.releaseAndWait("168.119.17.49", WAIT)).isFalse();
        assertThat(allocator.allocateAndWait(EipRequest.of(EXT_PORT, "owner-c"), WAIT)).isEqualTo(ip("168.119.17.49"));
    }

    @Test
    void allocatesFromTheIpv6NetworkOfTheFamilyAsked() {
        EipAllocator allocator = new EipAllocator(connect());
        EipRequest request = EipRequest.of(EXT6_PORT, "owner-6").withFamily(IpFamily.IPV6);

        // fd00:10:: is the Subnet-Router anycast address and fd00:10::1 the port.
        assertThat(allocator.allocateAndWait(request, WAIT)).isEqualTo(ip("fd00:10::2"));
        // fd00:10::55 is a VIP.
        EipRequest other = new EipRequest(EXT6_PORT, "owner-6b", IpFamily.IPV6, List.of());
        assertThat(allocator.allocateAndWait(other.excluding("fd00:10::3..fd00:10::54"), WAIT)).isEqualTo(ip("fd00:10::56"));

        assertThat(claimsByNbctl(EXT6_PORT)).containsOnlyKeys(ip("fd00:10::2"), ip("fd00:10::56"));
        assertThat(Nbctl.of(server).run("get", "Logical_Router_Port", EXT6_PORT, "external_ids:\"ovnj.eip.fd00:10::2\""))
                .isEqualTo("owner-6");
    }

    @Test
    void rejectsUnknownPortsAndMissingFamilies() {
        EipAllocator allocator = new EipAllocator(connect());

        assertThatThrownBy(() -> allocator.allocateAndWait(EipRequest.of("no-such-port", "x"), WAIT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no-such-port");
        assertThatThrownBy(() -> allocator.allocateAndWait(EipRequest.of(EXT_PORT, "x").withFamily(IpFamily.IPV6), WAIT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("IPV6");
        assertThat(claimsByNbctl(EXT_PORT)).isEmpty();
    }

    /**
     * Two allocators on separate connections all read the same state before any claim reaches the
     * server, which is paused meanwhile: each first batch picks .49, and the loser must be refused
     * by the wait and plan its whole batch again.
     */
    @Test
    void racingAllocatorsNeverHandOutAnAddressTwice() throws Exception {
        EipAllocator a = new EipAllocator(connect(), 20);
        EipAllocator b = new EipAllocator(connect(), 20);
        Map<CompletableFuture<InetAddress>, String> owners = new HashMap<>();

        server.pause();
        try {
            for (int i = 0; i < 3; i++) {
                owners.put(a.allocate(EipRequest.of(EXT_PORT, "a-" + i)), "a-" + i);
                owners.put(b.allocate(EipRequest.of(EXT_PORT, "b-" + i)), "b-" + i);
            }
        } finally {
            server.resume();
        }
        Map<InetAddress, String> handedOut = new HashMap<>();
        for (Map.Entry<CompletableFuture<InetAddress>, String> e : owners.entrySet()) {
            InetAddress got = e.getKey().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(handedOut.put(got, e.getValue())).as("%s handed out twice", got).isNull();
        }

        // Each success claimed the lowest free address of the state it was checked against.
        assertThat(handedOut.keySet()).containsExactlyInAnyOrderElementsOf(ips("168.119.17.49", "168.119.17.50",
                "168.119.17.52", "168.119.17.54", "168.119.17.56", "168.119.17.57"));
        assertThat(claimsByNbctl(EXT_PORT)).isEqualTo(handedOut);
        assertThat(a.retries() + b.retries()).as("the loser's batch was planned again").isPositive();
    }

    /**
     * Two allocators with one attempt each, both planning from the same state while the server
     * is paused: the one whose transaction comes second is refused and gives up.
     */
    @Test
    void givesUpWithAConflictErrorWhenAttemptsRunOut() {
        EipAllocator first = new EipAllocator(connect(), 1);
        EipAllocator second = new EipAllocator(connect(), 1);
        CompletableFuture<InetAddress> a;
        CompletableFuture<InetAddress> b;

        server.pause();
        try {
            a = first.allocate(EipRequest.of(EXT_PORT, "first"));
            b = second.allocate(EipRequest.of(EXT_PORT, "second"));
            // Both batches planned (and sent) before the server reads either.
            Await.until(WAIT, "both claims sent", () -> first.transactions() == 1 && second.transactions() == 1);
        } finally {
            server.resume();
        }

        List.of(a, b).forEach(f -> f.handle((x, e) -> x).orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join());
        CompletableFuture<InetAddress> winner = a.isCompletedExceptionally() ? b : a;
        CompletableFuture<InetAddress> loser = winner == a ? b : a;
        assertThat(winner).succeedsWithin(WAIT).isEqualTo(ip("168.119.17.49"));
        assertThatThrownBy(() -> loser.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(EipConflictException.class).hasMessageContaining(EXT_PORT).hasMessageContaining("1 attempts");
        assertThat(claimsByNbctl(EXT_PORT)).isEqualTo(Map.of(ip("168.119.17.49"), winner == a ? "first" : "second"));
        assertThat(first.retries() + second.retries()).isZero();
    }

    @Test
    void allocatingAgainForTheSameOwnerReturnsTheAddressItHoldsEvenAfterARestart() {
        OvsdbClient first = connect();
        EipAllocator allocator = new EipAllocator(first);
        EipRequest a = EipRequest.of(EXT_PORT, "ns/a");

        assertThat(allocator.allocateAndWait(a, WAIT)).isEqualTo(ip("168.119.17.49"));
        assertThat(allocator.allocateAndWait(a, WAIT)).isEqualTo(ip("168.119.17.49"));
        assertThat(allocator.allocateAndWait(EipRequest.of(EXT_PORT, "ns/b"), WAIT)).isEqualTo(ip("168.119.17.50"));
        // The claim key is owner, port and family: the same owner gets its own IPv6 address.
        InetAddress v6 = allocator.allocateAndWait(new EipRequest(EXT6_PORT, "ns/a", IpFamily.IPV6, List.of()), WAIT);
        assertThat(v6).isEqualTo(ip("fd00:10::2"));

        // A restarted controller: a new client and a new allocator, nothing remembered in memory.
        first.close();
        EipAllocator restarted = new EipAllocator(connect());
        assertThat(restarted.allocateAndWait(a, WAIT)).isEqualTo(ip("168.119.17.49"));
        assertThat(restarted.allocateAndWait(new EipRequest(EXT6_PORT, "ns/a", IpFamily.IPV6, List.of()), WAIT)).isEqualTo(v6);

        assertThat(claimsByNbctl(EXT_PORT)).isEqualTo(Map.of(ip("168.119.17.49"), "ns/a", ip("168.119.17.50"), "ns/b"));
        assertThat(claimsByNbctl(EXT6_PORT)).isEqualTo(Map.of(v6, "ns/a"));
        assertThat(new EipView(clients.get(1)).claimsOf("ns/a")).containsExactly(
                new EipClaim(ip("168.119.17.49"), "ns/a", ROUTER, EXT_PORT), new EipClaim(v6, "ns/a", ROUTER, EXT6_PORT));
    }

    /**
     * Two allocators on separate connections allocate for the same owner while the server is
     * paused, so every allocation reads the same empty state and picks .49: the losers must be
     * refused by the wait and, on retry, find the owner's claim instead of taking a second address.
     */
    @Test
    void concurrentAllocationsForOneOwnerYieldOneAddress() {
        EipAllocator a = new EipAllocator(connect(), 20);
        EipAllocator b = new EipAllocator(connect(), 20);
        List<CompletableFuture<InetAddress>> futures = new ArrayList<>();

        server.pause();
        try {
            for (int i = 0; i < 3; i++) {
                futures.add(a.allocate(EipRequest.of(EXT_PORT, "ns/a").excluding("168.119.17.49")));
                futures.add(b.allocate(EipRequest.of(EXT_PORT, "ns/a")));
            }
        } finally {
            server.resume();
        }

        List<InetAddress> got = futures.stream().map(f -> f.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join()).toList();
        assertThat(got).hasSize(6).containsOnly(got.get(0));
        assertThat(got.get(0)).isIn(ip("168.119.17.49"), ip("168.119.17.50"));
        assertThat(claimsByNbctl(EXT_PORT)).isEqualTo(Map.of(got.get(0), "ns/a"));
        assertThat(a.retries() + b.retries()).as("losers retried rather than failed").isPositive();
    }

    @Test
    void aHeldAddressIsKeptWhenNowExcludedAndAStaleOneMustBeReleased() {
        OvsdbClient client = connect();
        EipAllocator allocator = new EipAllocator(client);
        EipRequest a = EipRequest.of(EXT_PORT, "ns/a");
        assertThat(allocator.allocateAndWait(a, WAIT)).isEqualTo(ip("168.119.17.49"));

        // Exclusions govern new allocations only: the owner's address does not move.
        assertThat(allocator.allocateAndWait(a.excluding("168.119.17.49"), WAIT)).isEqualTo(ip("168.119.17.49"));

        // The port is renumbered: the held address is no longer routable there, and is not dropped silently.
        Nbctl.of(server).run("set", "Logical_Router_Port", EXT_PORT, "networks=\"192.0.2.1/29\"");
        catchUp(client);
        assertThatThrownBy(() -> allocator.allocateAndWait(a, WAIT)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ns/a").hasMessageContaining("168.119.17.49").hasMessageContaining("release");
        assertThat(claimsByNbctl(EXT_PORT)).isEqualTo(Map.of(ip("168.119.17.49"), "ns/a"));

        assertThat(allocator.releaseAndWait(a, WAIT)).isTrue();
        assertThat(claimsByNbctl(EXT_PORT)).isEmpty();
        assertThat(allocator.releaseAndWait(a, WAIT)).isFalse();
        assertThat(allocator.allocateAndWait(a, WAIT)).isEqualTo(ip("192.0.2.2"));
    }

    /** Claims made before allocation was idempotent: the lowest is the owner's, the others stay until released. */
    @Test
    void anOwnerWithSeveralClaimsGetsTheLowestAndReleaseByOwnerRemovesOnlyItsOwn() {
        Nbctl nbctl = Nbctl.of(server);
        nbctl.run("set", "Logical_Router_Port", EXT_PORT, "external_ids:\"ovnj.eip.168.119.17.52\"=legacy",
                "external_ids:\"ovnj.eip.168.119.17.50\"=legacy", "external_ids:\"ovnj.eip.168.119.17.49\"=other");
        EipAllocator allocator = new EipAllocator(connect());
        EipRequest legacy = EipRequest.of(EXT_PORT, "legacy");

        assertThat(allocator.allocateAndWait(legacy, WAIT)).isEqualTo(ip("168.119.17.50"));
        assertThat(allocator.releaseAndWait(legacy, WAIT)).isTrue();

        assertThat(claimsByNbctl(EXT_PORT)).isEqualTo(Map.of(ip("168.119.17.49"), "other"));
        assertThat(allocator.allocateAndWait(legacy, WAIT)).isEqualTo(ip("168.119.17.50"));
    }

    /**
     * A burst inside one process: 200 requests queued while the server is paused are claimed in
     * at most two transactions (the first request's, then everything queued behind it), each
     * address once, with no retry.
     */
    @Test
    void aBurstInOneProcessIsClaimedInBatchesWithoutRetries() {
        Nbctl.of(server).run("lrp-add", ROUTER, "big-ext", "02:00:00:00:00:03", "10.100.0.1/24");
        EipAllocator allocator = new EipAllocator(connect());
        List<CompletableFuture<InetAddress>> futures = new ArrayList<>();
        server.pause();
        try {
            for (int i = 0; i < 200; i++) {
                futures.add(allocator.allocate(EipRequest.of("big-ext", "ns/svc-" + i)));
            }
        } finally {
            server.resume();
        }

        Map<InetAddress, String> handedOut = new HashMap<>();
        for (int i = 0; i < futures.size(); i++) {
            InetAddress got = futures.get(i).orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
            assertThat(handedOut.put(got, "ns/svc-" + i)).as("%s handed out twice", got).isNull();
        }
        assertThat(claimsByNbctl("big-ext")).isEqualTo(handedOut);
        assertThat(allocator.retries()).isZero();
        assertThat(allocator.transactions()).isBetween(1L, 2L);
        assertThat(allocator.held("big-ext", "ns/svc-7")).containsExactly(handedOut.entrySet().stream()
                .filter(e -> e.getValue().equals("ns/svc-7")).findFirst().orElseThrow().getKey());
    }

    /** Two processes, each with a burst, racing on one port: every address still handed out once. */
    @Test
    void twoProcessesWithBurstsNeverHandOutAnAddressTwice() {
        Nbctl.of(server).run("lrp-add", ROUTER, "big-ext", "02:00:00:00:00:03", "10.100.0.1/24");
        EipAllocator a = new EipAllocator(connect());
        EipAllocator b = new EipAllocator(connect());
        Map<CompletableFuture<InetAddress>, String> owners = new HashMap<>();
        server.pause();
        try {
            for (int i = 0; i < 40; i++) {
                owners.put(a.allocate(EipRequest.of("big-ext", "a-" + i)), "a-" + i);
                owners.put(b.allocate(EipRequest.of("big-ext", "b-" + i)), "b-" + i);
            }
        } finally {
            server.resume();
        }
        Map<InetAddress, String> handedOut = new HashMap<>();
        owners.forEach((future, owner) -> {
            InetAddress got = future.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
            assertThat(handedOut.put(got, owner)).as("%s handed out twice", got).isNull();
        });
        assertThat(claimsByNbctl("big-ext")).isEqualTo(handedOut);
    }

    /**
     * The index follows other clients: a claim written with ovn-nbctl is held for its owner and
     * never handed out, and one removed with ovn-nbctl is free again (the search starts over).
     */
    @Test
    void theIndexFollowsClaimsWrittenAndRemovedByOthers() {
        OvsdbClient client = connect();
        EipAllocator allocator = new EipAllocator(client);
        assertThat(allocator.allocateAndWait(EipRequest.of(EXT_PORT, "ns/a"), WAIT)).isEqualTo(ip("168.119.17.49"));
        Nbctl.of(server).run("set", "Logical_Router_Port", EXT_PORT, "external_ids:\"ovnj.eip.168.119.17.50\"=ns/other");
        catchUp(client);
        Await.until(WAIT, "the index shows ns/other's claim", () -> allocator.held(EXT_PORT, "ns/other").equals(ips("168.119.17.50")));
        assertThat(allocator.allocateAndWait(EipRequest.of(EXT_PORT, "ns/b"), WAIT)).isEqualTo(ip("168.119.17.52"));
        assertThatThrownBy(() -> allocator.claim(EipRequest.of(EXT_PORT, "ns/c"), ip("168.119.17.50")).join())
                .cause().isInstanceOf(EipClaimedException.class).hasMessageContaining("ns/other");
        assertThatThrownBy(() -> allocator.claim(EipRequest.of(EXT_PORT, "ns/c"), ip("168.119.17.60")).join())
                .cause().isInstanceOf(EipClaimedException.class).hasMessageContaining("router");

        Nbctl.of(server).run("remove", "Logical_Router_Port", EXT_PORT, "external_ids", "\"ovnj.eip.168.119.17.49\"");
        catchUp(client);
        Await.until(WAIT, "the index shows .49 free", () -> allocator.held(EXT_PORT, "ns/a").isEmpty());
        assertThat(allocator.allocateAndWait(EipRequest.of(EXT_PORT, "ns/d"), WAIT)).isEqualTo(ip("168.119.17.49"));
        assertThat(allocator.claim(EipRequest.of(EXT_PORT, "ns/e"), ip("168.119.17.61")).join()).isEqualTo(ip("168.119.17.61"));
        assertThat(claimsByNbctl(EXT_PORT)).isEqualTo(Map.of(ip("168.119.17.49"), "ns/d", ip("168.119.17.50"), "ns/other",
                ip("168.119.17.52"), "ns/b", ip("168.119.17.61"), "ns/e"));
    }

    /**
     * Makes the client's cache show everything committed so far: the reply to its own transaction
     * is processed after every update that precedes it.
     */
    private static void catchUp(OvsdbClient client) {
        client.transactAndWait(client.transaction().add(Operations.comment("catch up")).build(), WAIT);
    }
}
