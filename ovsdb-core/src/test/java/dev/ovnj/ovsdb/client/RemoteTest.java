package dev.ovnj.ovsdb.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RemoteTest {

    @Test
    void parsesEveryFormOvsWrites() {
        assertThat(Remote.parse("tcp:127.0.0.1:6641")).isEqualTo(new Remote(Remote.Kind.TCP, "127.0.0.1", 6641, null));
        assertThat(Remote.parse("ssl:10.0.0.1:6641")).isEqualTo(new Remote(Remote.Kind.SSL, "10.0.0.1", 6641, null));
        assertThat(Remote.parse("tcp:[::1]:6641")).isEqualTo(new Remote(Remote.Kind.TCP, "::1", 6641, null));
        assertThat(Remote.parse("unix:/var/run/ovn/ovnnb_db.sock")).isEqualTo(new Remote(Remote.Kind.UNIX, null, 0, Path.of("/var/run/ovn/ovnnb_db.sock")));
    }

    @Test
    void refusesARemoteWithoutAPortNamingOvnsPorts() {
        // OVS would take 6640 (Open_vSwitch); OVN's databases are on 6641 and 6642.
        assertThatThrownBy(() -> Remote.parse("tcp:10.0.0.1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid OVSDB remote \"tcp:10.0.0.1\": no port; OVN's Northbound listens on 6641 and its Southbound"
                        + " on 6642 (Open_vSwitch on 6640), e.g. tcp:10.0.0.1:6641");
        assertThatThrownBy(() -> Remote.parse("ssl:[fd00::1]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("e.g. ssl:[fd00::1]:6641");
        assertThatThrownBy(() -> OvsdbClient.builder().remotes("tcp:10.0.0.1:6641,tcp:10.0.0.2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"tcp:10.0.0.2\": no port");
    }

    @Test
    void printsBackInOvsSyntax() {
        for (String s : new String[] {"tcp:127.0.0.1:6641", "ssl:10.0.0.1:6641", "tcp:[::1]:6641", "unix:/tmp/db.sock"}) {
            assertThat(Remote.parse(s)).hasToString(s);
        }
    }

    @Test
    void parsesClusterLists() {
        assertThat(Remote.parseList("tcp:10.0.0.1:6641, tcp:10.0.0.2:6641,tcp:[::1]:6641"))
                .extracting(Remote::toString).containsExactly("tcp:10.0.0.1:6641", "tcp:10.0.0.2:6641", "tcp:[::1]:6641");
    }

    @Test
    void rejectsBadRemotesNamingTheProblem() {
        assertThatThrownBy(() -> Remote.parse("http://x")).hasMessageContaining("unknown method \"http\"");
        assertThatThrownBy(() -> Remote.parse("ptcp:6641")).hasMessageContaining("passive");
        assertThatThrownBy(() -> Remote.parse("tcp:1.2.3.4:99999")).hasMessageContaining("out of range");
        assertThatThrownBy(() -> Remote.parse("tcp:1.2.3.4:abc")).hasMessageContaining("\"abc\" is not a number");
        assertThatThrownBy(() -> Remote.parse("tcp:::1:6641")).hasMessageContaining("brackets");
        assertThatThrownBy(() -> Remote.parse("tcp:[::1:6641")).hasMessageContaining("unclosed");
        assertThatThrownBy(() -> Remote.parse("unix:")).hasMessageContaining("socket path");
        assertThatThrownBy(() -> Remote.parse("localhost")).hasMessageContaining("expected tcp:IP:PORT");
        assertThatThrownBy(() -> Remote.parseList(" , ")).hasMessageContaining("no OVSDB remote");
    }

    @Test
    void sslRemoteWithoutTlsIsRejectedAtBuild() {
        assertThatThrownBy(() -> OvsdbClient.builder().remotes("ssl:127.0.0.1:6641").build())
                .hasMessageContaining("ssl: remote given without TLS");
    }
}
