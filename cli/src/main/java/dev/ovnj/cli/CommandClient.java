package dev.ovnj.cli;

import dev.ovnj.ovsdb.client.OvsdbClient;

/**
 * A synced client that a command closes with {@link OvsdbClient#closeBeforeExit()}: the process
 * exits when the command returns ({@link Main#main} ends in {@code System.exit}), so it does not
 * wait the 0 to 1 s that {@link OvsdbClient#close()} waits for the thread Netty shares between
 * clients (about 0.5 s of a 1.2 s {@code ovnj status} on 10,000 load balancers). Tests that run
 * commands in-process see that thread end by itself within a second.
 *
 * @param client the client
 */
record CommandClient(OvsdbClient client) implements AutoCloseable {
    @Override
    public void close() {
        client.closeBeforeExit();
    }
}
