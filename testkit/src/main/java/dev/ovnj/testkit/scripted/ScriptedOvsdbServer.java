package dev.ovnj.testkit.scripted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.testkit.TestkitException;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.json.JsonObjectDecoder;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A fake OVSDB server on 127.0.0.1 that answers with whatever a {@link Script} says: for testing
 * how a client copes with servers that lack methods, send malformed or hostile messages, or
 * misbehave in ways a real ovsdb-server never would. Every request it received is recorded.
 */
public final class ScriptedOvsdbServer implements AutoCloseable {
    private final EventLoopGroup group = new NioEventLoopGroup(1);
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private final ObjectMapper mapper = new ObjectMapper();
    private final Channel listener;
    private final Script script;

    /** Decides what the server does with each request. */
    @FunctionalInterface
    public interface Script {
        /**
         * Handles one request or notification from the client.
         *
         * @param connection the client connection, to reply or send on
         * @param message the JSON-RPC message as received
         */
        void onMessage(ScriptedConnection connection, JsonNode message);
    }

    private ScriptedOvsdbServer(Script script) {
        this.script = script;
        ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.add(ch);
                        ch.pipeline().addLast(new JsonObjectDecoder(256 * 1024 * 1024));
                        ch.pipeline().addLast(new Handler(new ScriptedConnection(ch, mapper)));
                    }
                });
        try {
            listener = b.bind("127.0.0.1", 0).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestkitException("interrupted while starting the scripted server", e);
        }
    }

    /**
     * Starts a server running {@code script}.
     *
     * @param script what to do with each message
     * @return the running server
     */
    public static ScriptedOvsdbServer start(Script script) {
        return new ScriptedOvsdbServer(script);
    }

    /**
     * The remote clients connect to, {@code tcp:127.0.0.1:PORT}.
     *
     * @return the remote clients connect to, {
     */
    public String remote() {
        return "tcp:127.0.0.1:" + ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /**
     * Every message received so far, in order, across connections.
     *
     * @return every message received so far, in order, across connections
     */
    public List<JsonNode> received() {
        return List.copyOf(requests);
    }

    /**
     * The methods of the requests received so far, in order.
     *
     * @return method names
     */
    public List<String> receivedMethods() {
        return requests.stream().map(r -> r.path("method").asText()).toList();
    }

    /**
     * Sends raw text to every open client connection, e.g. a notification nobody asked for.
     *
     * @param text the bytes to send, UTF-8
     */
    public void broadcast(String text) {
        connections.writeAndFlush(io.netty.buffer.Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
    }

    /**
     * Number of client connections currently open.
     *
     * @return number of client connections currently open
     */
    public int openConnections() {
        return connections.size();
    }

    /** Closes every connection and the listener. */
    @Override
    public void close() {
        listener.close();
        connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Handler extends SimpleChannelInboundHandler<ByteBuf> {
        private final ScriptedConnection connection;

        Handler(ScriptedConnection connection) {
            this.connection = connection;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) throws IOException {
            JsonNode json = mapper.readTree(msg.toString(StandardCharsets.UTF_8));
            requests.add(json);
            script.onMessage(connection, json);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
