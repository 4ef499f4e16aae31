package dev.ovnj.testkit.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbCluster;
import dev.ovnj.testkit.OvsdbServer;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@OvsdbTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OvsdbExtensionIT {
    static OvsdbServer shared;
    static final Set<Long> perTestPids = new HashSet<>();

    @BeforeAll
    static void classScoped(OvsdbServer server) {
        shared = server;
    }

    @AfterAll
    static void perTestServersAreGone() {
        assertThat(perTestPids).hasSize(2);
        assertThat(perTestPids).noneMatch(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false));
    }

    @Test
    @Order(1)
    void perTestServerIsFreshAndClassServerShared(OvsdbServer server) {
        assertThat(server).isNotSameAs(shared);
        perTestPids.add(server.pid());
        Nbctl.of(shared).run("ls-add", "from-test-1");
        assertThat(Nbctl.of(server).run("ls-list")).isEmpty();
    }

    @Test
    @Order(2)
    void classServerKeepsStateAcrossTests(@ServerConfig(unixSocket = true) OvsdbServer server) {
        perTestPids.add(server.pid());
        assertThat(server.unixRemote()).isPresent();
        assertThat(Nbctl.of(shared).run("ls-list")).contains("from-test-1");
    }

    @Test
    @Order(3)
    void injectsClusters(@Cluster(size = 3) OvsdbCluster cluster) {
        assertThat(cluster.size()).isEqualTo(3);
        assertThat(cluster.leader()).isPresent();
    }
}
