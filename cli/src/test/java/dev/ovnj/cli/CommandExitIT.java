package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.junit.OvsdbTest;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command returns without waiting for the thread Netty shares between clients
 * ({@link dev.ovnj.ovsdb.client.OvsdbClient#close()} does not wait for it): in {@code ovnj status}
 * on 10,000 load balancers that wait was 0.3-0.5 s of a 1.2 s command.
 */
@OvsdbTest
class CommandExitIT {

    @TempDir
    Path dir;

    @Test
    void statusReturnsWhileNettysSharedThreadIsStillBusy(OvsdbServer server) throws Exception {
        CommandsIT.seeded(server);
        String printed = runWhileSharedThreadBusy(0, "status", "--db", server.remote());
        assertThat(printed).contains("no load balancers owned by ovnj");
    }

    @Test
    void diffWithItsEngineReturnsWhileNettysSharedThreadIsStillBusy(OvsdbServer server) throws Exception {
        CommandsIT.seeded(server);
        Path file = Files.writeString(dir.resolve("state.yaml"), CommandsIT.STATE);
        String printed = runWhileSharedThreadBusy(1, "diff", "--db", server.remote(), "--file", file.toString());
        assertThat(printed).contains("+ create shalb-dev-etcd-lb-tcp");
    }

    /** Runs a command in-process while Netty's shared thread is busy; returns what it printed (diff: 1 = changes pending). */
    private static String runWhileSharedThreadBusy(int expectedExit, String... args) throws Exception {
        // The shared thread stays busy until the command has returned (or gives up after 20 s); a
        // command that waited for it, as OvsdbClient.close() does, would return only after this
        // task gave up.
        CountDownLatch returned = new CountDownLatch(1);
        Future<Boolean> shared = GlobalEventExecutor.INSTANCE.submit(() -> returned.await(20, TimeUnit.SECONDS));
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = Main.run(args);
        } finally {
            System.setOut(out);
            returned.countDown();
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(text).isEqualTo(expectedExit);
        assertThat(shared.get(30, TimeUnit.SECONDS)).as(args[0] + " returned while Netty's shared thread was busy").isTrue();
        return text;
    }
}
