package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import dev.ovnj.testkit.Nbctl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code ovnj serve} from the shaded jar: ovn-nbctl works against it, and SIGTERM ends it cleanly. */
class ServeIT {
    @Test
    void nbctlBuildsATopologyOnTheServedDatabase() {
        int port = freePort();
        try (OvnjProcess serve = OvnjProcess.start("serve", "--remote", "ptcp:" + port + ":127.0.0.1")) {
            Await.until(Duration.ofSeconds(30), "ovnj serve listening",
                    () -> serve.stdout().stream().anyMatch(l -> l.startsWith("serving OVN_Northbound on tcp:127.0.0.1:" + port)));
            Nbctl nbctl = Nbctl.of("tcp:127.0.0.1:" + port);
            nbctl.run("lr-add", "lr0");
            nbctl.run("ls-add", "sw0");
            nbctl.run("lsp-add", "sw0", "p1");
            nbctl.run("lb-add", "lb0", "10.0.0.10:80", "10.0.0.2:8080", "tcp");
            nbctl.run("lr-lb-add", "lr0", "lb0");
            assertThat(nbctl.run("show")).contains("switch", "(sw0)", "port p1", "router", "(lr0)");
            assertThat(nbctl.anyMember().run("--bare", "--columns=vips", "list", "Load_Balancer"))
                    .isEqualTo("10.0.0.10:80=10.0.0.2:8080");
            serve.terminate();
            assertThat(serve.await(Duration.ofSeconds(30)).exit()).isZero();
        }
    }

    @Test
    void aRemoteThatIsNotPtcpOrPunixIsAUsageError() {
        OvnjProcess.Result r = OvnjProcess.run("serve", "--remote", "tcp:127.0.0.1:6641");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("expected ptcp:PORT[:IP] or punix:PATH");
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
