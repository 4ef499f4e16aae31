package dev.ovnj.testkit.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Nbctl;
import dev.ovnj.testkit.OvsdbServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * {@code @OvsdbTest(ports, directory)} and {@code @ServerConfig(port, directory)}: injected
 * servers listen in the class's port range and keep their files under its directory (with
 * {@code ${NAME}} expanded), a parameter pins its own, a taken port of the range is skipped, and
 * the files stay after the servers close.
 */
@OvsdbTest(ports = OvsdbTestPlacementIT.FIRST + "-" + OvsdbTestPlacementIT.LAST, directory = "${java.io.tmpdir}/ovnj-placement-it")
class OvsdbTestPlacementIT {
    static final int FIRST = 47310;
    static final int LAST = 47329;
    static final int PINNED = 47339;
    private static final Path BASE = Path.of(System.getProperty("java.io.tmpdir"), "ovnj-placement-it");
    private static final Path PINNED_BASE = Path.of(System.getProperty("java.io.tmpdir"), "ovnj-placement-pinned");
    private static final List<Path> SERVER_DIRECTORIES = new ArrayList<>();
    private ServerSocket taken;

    @BeforeEach
    void takeTheFirstFreePortOfTheRange(TestInfo test) throws IOException {
        if (test.getTestMethod().orElseThrow().getName().startsWith("aTakenPort")) {
            for (int port = FIRST; port <= LAST && taken == null; port++) {
                try {
                    taken = new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
                } catch (IOException busy) {
                    // Taken by someone else already: the next one.
                }
            }
        }
    }

    @AfterEach
    void releaseIt() throws IOException {
        if (taken != null) {
            taken.close();
        }
    }

    @AfterAll
    static void theFilesStayAfterTheServersClose() throws IOException {
        assertThat(SERVER_DIRECTORIES).hasSize(4);
        for (Path dir : SERVER_DIRECTORIES) {
            assertThat(dir.resolve("ovsdb-server.log")).as("the log kept in %s", dir).exists();
        }
        for (Path base : List.of(BASE, PINNED_BASE)) {
            try (Stream<Path> walk = Files.walk(base)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void eachServerTakesAPortOfTheRangeAndADirectoryOfItsOwnUnderTheBase(OvsdbServer a, OvsdbServer b) {
        for (OvsdbServer s : List.of(a, b)) {
            assertThat(s.port()).isBetween(FIRST, LAST);
            assertThat(s.directory().getParent()).isEqualTo(BASE);
            assertThat(s.directory().getFileName().toString())
                    .startsWith("OvsdbTestPlacementIT-eachServerTakesAPortOfTheRangeAndADirectoryOfItsOwnUnderTheBase-");
            assertThat(s.databaseFile()).startsWith(s.directory()).exists();
            SERVER_DIRECTORIES.add(s.directory());
        }
        assertThat(a.port()).isNotEqualTo(b.port());
        assertThat(a.directory()).isNotEqualTo(b.directory());
        Nbctl.of(a).run("ls-add", "sw0");
        assertThat(Nbctl.of(a).run("ls-list")).contains("sw0");
        assertThat(a.remote()).isEqualTo("tcp:127.0.0.1:" + a.port());
    }

    @Test
    void aTakenPortOfTheRangeIsSkipped(OvsdbServer server) {
        assertThat(taken).as("a free port of the range to take").isNotNull();

        assertThat(server.port()).isBetween(FIRST, LAST).isNotEqualTo(taken.getLocalPort());
        SERVER_DIRECTORIES.add(server.directory());
    }

    @Test
    void aParameterPinsItsOwnPortAndDirectory(
            @ServerConfig(port = PINNED, directory = "${java.io.tmpdir}/ovnj-placement-pinned") OvsdbServer server) {
        assertThat(server.port()).isEqualTo(PINNED);
        assertThat(server.directory().getParent()).isEqualTo(PINNED_BASE);
        assertThat(Nbctl.of(server).run("ls-list")).isEmpty();
        SERVER_DIRECTORIES.add(server.directory());
    }
}
