package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sharing rule of {@link AddressSharing}, without a server. */
class AddressSharingTest {

    private static Service svc(String name, String created, String key, String protocol, int port) {
        Service s = loadBalancer(name);
        s.getMetadata().setCreationTimestamp(created);
        s.getSpec().setPorts(List.of(new ServicePortBuilder().withProtocol(protocol).withPort(port).build()));
        if (key != null) {
            s.getMetadata().setAnnotations(Map.of(ServiceAnnotations.SHARED_IP, " " + key + " "));
        }
        return s;
    }

    @Test
    void theNewerOfACollisionIsRefusedNamingThePortAndTheOlderHolder() {
        Service old = svc("z-old", "2026-01-01T00:00:00Z", "k", "TCP", 53);
        Service udp = svc("m-udp", "2026-01-02T00:00:00Z", "k", "UDP", 53);
        Service young = svc("a-young", "2026-01-03T00:00:00Z", "k", "TCP", 53);
        List<Service> sharers = AddressSharing.sharers(List.of(young, udp, old), "shop", "k", s -> true);

        assertThat(sharers).containsExactly(old, udp, young);
        assertThat(AddressSharing.collision(young, sharers, s -> false)).contains(
                "port TCP/53 is held by shop/z-old, an older Service waiting for it with the same ovnj.dev/allow-shared-ip key");
        assertThat(AddressSharing.collision(old, sharers, s -> false)).isEmpty();
        assertThat(AddressSharing.collision(udp, sharers, s -> false)).isEmpty();
    }

    /** shop/dns-tcp lost 172.30.0.4:53 to a Service created in the same second when its slice changed: the holder keeps it. */
    @Test
    void aSameSecondCollisionKeepsTheHolderWhateverTheNames() {
        Service holder = svc("z-holder", "2026-01-01T00:00:00Z", "k", "TCP", 53);
        Service dup = svc("a-dup", "2026-01-01T00:00:00Z", "k", "TCP", 53);
        List<Service> sharers = AddressSharing.sharers(List.of(holder, dup), "shop", "k", s -> true);
        java.util.function.Predicate<Service> holds = s -> s == holder;
        assertThat(AddressSharing.collision(holder, sharers, holds)).isEmpty();
        assertThat(AddressSharing.collision(dup, sharers, holds)).contains(
                "port TCP/53 is held by shop/z-holder, which serves it with the same ovnj.dev/allow-shared-ip key");
        // An older newcomer waits too: holding, not age, decides.
        Service older = svc("older", "2025-01-01T00:00:00Z", "k", "TCP", 53);
        assertThat(AddressSharing.collision(older, List.of(older, holder), holds)).isPresent();
        assertThat(AddressSharing.collision(holder, List.of(older, holder), holds)).isEmpty();
    }

    @Test
    void equalTimestampsAreOrderedByNameAndAMissingOneCountsAsNewest() {
        Service b = svc("b", "2026-01-01T00:00:00Z", "k", "TCP", 80);
        Service a = svc("a", "2026-01-01T00:00:00Z", "k", "TCP", 80);
        Service unstamped = svc("0", null, "k", "TCP", 80);
        assertThat(List.of(b, unstamped, a).stream().sorted(AddressSharing.AGE).toList()).containsExactly(a, b, unstamped);
        assertThat(AddressSharing.collision(b, List.of(a, b), s -> false)).isPresent();
        assertThat(AddressSharing.collision(a, List.of(a, b), s -> false)).isEmpty();
    }

    @Test
    void sharersAreTheServedServicesOfTheNamespaceWithTheKeyThatAreNotBeingDeleted() {
        Service other = svc("other", "2026-01-01T00:00:00Z", "x", "TCP", 80);
        Service plain = svc("plain", "2026-01-01T00:00:00Z", null, "TCP", 81);
        Service leaving = svc("leaving", "2026-01-01T00:00:00Z", "k", "TCP", 82);
        leaving.getMetadata().setDeletionTimestamp("2026-02-01T00:00:00Z");
        Service elsewhere = svc("elsewhere", "2026-01-01T00:00:00Z", "k", "TCP", 83);
        elsewhere.getMetadata().setNamespace("other-ns");
        Service member = svc("member", "2026-01-01T00:00:00Z", "k", "TCP", 84);
        Service unserved = svc("unserved", "2026-01-01T00:00:00Z", "k", "TCP", 85);

        assertThat(AddressSharing.sharers(List.of(other, plain, leaving, elsewhere, member, unserved), "shop", "k",
                s -> !s.getMetadata().getName().equals("unserved"))).containsExactly(member);
        assertThat(AddressSharing.claimOwner(member)).isEqualTo("shop/allow-shared-ip=k");
        assertThat(AddressSharing.claimOwner(plain)).isEqualTo("shop/plain");
        assertThat(AddressSharing.namespaceOf("shop/allow-shared-ip=k")).contains("shop");
        assertThat(AddressSharing.keyOf("shop/allow-shared-ip=k")).contains("k");
        assertThat(AddressSharing.namespaceOf("shop/plain")).isEmpty();
    }
}
