package dev.ovnj.testkit.fault;

import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.TestkitException;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy on 127.0.0.1 between a client and a server, with faults switched on and off while
 * connections are open: added latency, a blackhole (nothing forwarded either way while the sockets
 * stay open, as in a network partition), resetting every connection, and refusing new ones.
 * {@link #heal()} clears every fault.
 */
public final class FaultProxy implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FaultProxy.class);

    private final InetSocketAddress target;
    private final EventLoopGroup group = new NioEventLoopGroup(1);
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final int port;
    private volatile Channel listener;
    private volatile long latencyNanos;
    private volatile boolean blackholed;
    // Reads held back by latency until their write runs; close() releases those whose write never will.
    private final Set<HeldWrite> held = ConcurrentHashMap.newKeySet();

    private FaultProxy(InetSocketAddress target) {
        this.target = target;
        this.listener = bind(0);
        this.port = ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /**
     * Starts a proxy to {@code host:port}.
     *
     * @param host target host (normally 127.0.0.1)
     * @param port target port
     * @return the running proxy
     */
    public static FaultProxy start(String host, int port) {
        return new FaultProxy(new InetSocketAddress(host, port));
    }

    /**
     * Starts a proxy to a testkit server's TCP remote.
     *
     * @param server the server
     * @return the running proxy
     */
    public static FaultProxy to(OvsdbServer server) {
        return start("127.0.0.1", server.port());
    }

    /**
     * The remote clients connect to instead of the server's, {@code tcp:127.0.0.1:PORT}.
     *
     * @return the remote clients connect to instead of the server's, {
     */
    public String remote() {
        return "tcp:127.0.0.1:" + port;
    }

    /**
     * The proxy's listening port.
     *
     * @return the proxy's listening port
     */
    public int port() {
        return port;
    }

    /**
     * Number of open sockets on both sides (two per proxied connection).
     *
     * @return number of open sockets on both sides (two per proxied connection)
     */
    public int openSockets() {
        return connections.size();
    }

    /**
     * Delays every chunk by {@code delay} in each direction.
     *
     * @param delay added one-way latency; zero removes it
     */
    public void latency(Duration delay) {
        latencyNanos = delay.toNanos();
        LOG.info("fault proxy {}: latency {} ms each way", port, delay.toMillis());
    }

    /** Stops forwarding in both directions; sockets stay open and bytes wait until {@link #heal()}. */
    public void blackhole() {
        blackholed = true;
        connections.forEach(c -> c.config().setAutoRead(false));
        LOG.info("fault proxy {}: blackhole", port);
    }

    /** Resets every open connection (RST, not FIN), as a crashed middlebox would. */
    public void resetAll() {
        // Linger 0 makes close() send RST; done on the event loop so a peer closing meanwhile is seen.
        connections.forEach(c -> c.eventLoop().execute(() -> {
            if (c.isOpen()) {
                c.config().setOption(ChannelOption.SO_LINGER, 0);
                c.close();
            }
        }));
        LOG.info("fault proxy {}: reset all connections", port);
    }

    /** Stops listening, so new connections are refused; open ones keep working. */
    public void refuseNew() {
        Channel l = listener;
        if (l != null) {
            l.close().syncUninterruptibly();
            listener = null;
            awaitRefused();
        }
        LOG.info("fault proxy {}: refusing new connections", port);
    }

    /** Clears every fault: no latency, forwarding resumes, new connections accepted again. */
    public synchronized void heal() {
        latencyNanos = 0;
        blackholed = false;
        connections.forEach(c -> {
            c.config().setAutoRead(true);
            c.read();
        });
        if (listener == null) {
            listener = bind(port);
        }
        LOG.info("fault proxy {}: healed", port);
    }

    /** Closes every connection and the listener. */
    @Override
    public void close() {
        Channel l = listener;
        if (l != null) {
            l.close();
        }
        connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        // The terminated loop dropped the delayed writes it had not run.
        for (HeldWrite w : List.copyOf(held)) {
            w.discard();
        }
    }

    /**
     * NIO defers the kernel close of a socket registered with a selector until the event loop's
     * next select, so a connect right after close() could still be accepted; wait until it is not.
     */
    private void awaitRefused() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            try (java.net.Socket probe = new java.net.Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 200);
            } catch (java.io.IOException refused) {
                return;
            }
            group.next().submit(() -> { }).syncUninterruptibly();
        }
        throw new TestkitException("fault proxy port " + port + " still accepts connections after refuseNew()");
    }

    private Channel bind(int localPort) {
        ServerBootstrap b = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.AUTO_READ, false)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connections.add(ch);
                        ch.pipeline().addLast(new Frontend());
                    }
                });
        try {
            return b.bind("127.0.0.1", localPort).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestkitException("interrupted while binding the fault proxy", e);
        } catch (Exception e) {
            throw new TestkitException("fault proxy cannot listen on 127.0.0.1:" + localPort + ": " + e.getMessage(), e);
        }
    }

    /** Accepted client side: connects to the target, then relays. */
    private final class Frontend extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            Channel client = ctx.channel();
            new Bootstrap()
                    .group(client.eventLoop())
                    .channel(NioSocketChannel.class)
                    .option(ChannelOption.AUTO_READ, false)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel server) {
                            connections.add(server);
                            server.pipeline().addLast(new Relay(client));
                        }
                    })
                    .connect(target)
                    .addListener((ChannelFutureListener) f -> {
                        if (!f.isSuccess()) {
                            client.close();
                            return;
                        }
                        Channel server = f.channel();
                        client.pipeline().addLast(new Relay(server));
                        if (!blackholed) {
                            client.config().setAutoRead(true);
                            server.config().setAutoRead(true);
                        }
                    });
        }
    }

    /** Forwards what one side reads to the other, honouring latency; closing one side closes both. */
    private final class Relay extends ChannelInboundHandlerAdapter {
        private final Channel peer;

        Relay(Channel peer) {
            this.peer = peer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!peer.isActive()) {
                ReferenceCountUtil.release(msg);
                return;
            }
            long delay = latencyNanos;
            if (delay > 0) {
                HeldWrite write = new HeldWrite(peer, msg);
                held.add(write);
                ctx.executor().schedule(write, delay, TimeUnit.NANOSECONDS);
            } else {
                peer.writeAndFlush(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            long delay = latencyNanos;
            if (delay > 0) {
                ctx.executor().schedule(() -> peer.close(), delay, TimeUnit.NANOSECONDS);
            } else {
                peer.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** A read forwarded after the latency; exactly one of running it and discarding it takes the message. */
    private final class HeldWrite implements Runnable {
        private final Channel peer;
        private final Object msg;

        HeldWrite(Channel peer, Object msg) {
            this.peer = peer;
            this.msg = msg;
        }

        @Override
        public void run() {
            if (held.remove(this)) {
                peer.writeAndFlush(msg);
            }
        }

        void discard() {
            if (held.remove(this)) {
                ReferenceCountUtil.release(msg);
            }
        }
    }
}
