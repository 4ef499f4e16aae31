/**
 * ovnj's OVSDB (RFC 7047) client. The packages exported to all are its API; the JSON-RPC and
 * framing layers ({@code rpc}, {@code wire}) are internal, shared only with testkit's in-memory
 * server, which speaks the same protocol.
 */
// "module": the in-memory server is not among this module's dependencies, so javac cannot see it.
@SuppressWarnings({"module", "requires-automatic", "requires-transitive-automatic"})
module dev.ovnj.ovsdb {
    requires transitive com.fasterxml.jackson.databind;
    requires transitive io.netty.transport;
    requires io.netty.common;
    requires io.netty.buffer;
    requires transitive io.netty.handler;
    requires io.netty.codec;
    requires io.netty.transport.classes.epoll;
    requires io.netty.transport.unix.common;
    requires org.slf4j;
    // Netty reaches sun.misc.Unsafe for direct buffers; on the module path nothing else resolves
    // jdk.unsupported, and Netty then falls back to heap buffers with a warning at start-up.
    requires jdk.unsupported;

    exports dev.ovnj.ovsdb;
    exports dev.ovnj.ovsdb.cache;
    exports dev.ovnj.ovsdb.client;
    exports dev.ovnj.ovsdb.codegen;
    exports dev.ovnj.ovsdb.data;
    exports dev.ovnj.ovsdb.monitor;
    exports dev.ovnj.ovsdb.schema;
    exports dev.ovnj.ovsdb.tx;
    exports dev.ovnj.ovsdb.typed;

    exports dev.ovnj.ovsdb.rpc to dev.ovnj.testkit.inmemory;
    exports dev.ovnj.ovsdb.wire to dev.ovnj.testkit.inmemory;
}
