package dev.ovnj.testkit;

import java.nio.file.Path;
import java.util.Optional;

/**
 * An OVSDB server that runs inside this JVM, behind an {@link OvsdbServer} built with
 * {@link OvsdbServer.Builder#inMemory(boolean)}. The implementation lives in the
 * {@code testkit-inmemory} module (it needs ovsdb-core, whose own tests depend on testkit) and is
 * found with {@link java.util.ServiceLoader} through {@link Factory}.
 */
public interface InMemoryBackend extends AutoCloseable {
    /**
     * The name of the database served, e.g. {@code OVN_Northbound}.
     *
     * @return the database name
     */
    String databaseName();

    /**
     * Whether the server listens.
     *
     * @return true while listening
     */
    boolean isRunning();

    /** Stops listening and closes every connection; the data stays. */
    void stop();

    /** Listens again on the same port and socket with the same data. */
    void restart();

    /** Stops reading from connections, as a SIGSTOPped process would. */
    void pause();

    /** Reads again after {@link #pause()}. */
    void resume();

    /** Stops the server for good. */
    @Override
    void close();

    /** Creates in-memory servers; registered as a {@link java.util.ServiceLoader} service. */
    interface Factory {
        /**
         * Starts a server listening on 127.0.0.1.
         *
         * @param schema the schema file, or empty for the bundled OVN Northbound schema
         * @param tcpPort the TCP port on 127.0.0.1
         * @param unixSocket a unix socket to listen on as well, if any
         * @return the running server
         */
        InMemoryBackend start(Optional<Path> schema, int tcpPort, Optional<Path> unixSocket);
    }
}
