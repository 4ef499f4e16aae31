package dev.ovnj.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void portsPickedTogetherAreDifferentAndFree() throws Exception {
        for (int round = 0; round < 20; round++) {
            int[] ports = FreePorts.distinct(5);
            assertThat(Arrays.stream(ports).distinct().count()).as("round %d: %s", round, Arrays.toString(ports)).isEqualTo(5);
            for (int p : ports) {
                try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                    assertThat(s.getLocalPort()).isEqualTo(p);
                }
            }
        }
    }
}
