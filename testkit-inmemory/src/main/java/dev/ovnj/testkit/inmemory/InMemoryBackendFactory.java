package dev.ovnj.testkit.inmemory;

import dev.ovnj.testkit.InMemoryBackend;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Lets testkit's {@link dev.ovnj.testkit.OvsdbServer} (and so {@code @OvsdbTest}) front an
 * {@link InMemoryOvsdbServer}; found through {@link java.util.ServiceLoader}.
 */
public final class InMemoryBackendFactory implements InMemoryBackend.Factory {
    /** Creates the factory; ServiceLoader does this. */
    public InMemoryBackendFactory() {
    }

    @Override
    public InMemoryBackend start(Optional<Path> schema, int tcpPort, Optional<Path> unixSocket) {
        InMemoryOvsdbServer.Builder b = InMemoryOvsdbServer.builder().tcp("127.0.0.1", tcpPort);
        schema.ifPresent(b::schema);
        unixSocket.ifPresent(b::unixSocket);
        InMemoryOvsdbServer server = b.start();
        return new InMemoryBackend() {
            @Override
            public String databaseName() {
                return server.databaseNames().get(0);
            }

            @Override
            public boolean isRunning() {
                return server.isRunning();
            }

            @Override
            public void stop() {
                server.stop();
            }

            @Override
            public void restart() {
                server.restart();
            }

            @Override
            public void pause() {
                server.pause();
            }

            @Override
            public void resume() {
                server.resume();
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }
}
