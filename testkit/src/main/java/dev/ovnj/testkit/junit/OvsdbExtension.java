package dev.ovnj.testkit.junit;

import dev.ovnj.testkit.OvsdbCluster;
import dev.ovnj.testkit.OvsdbServer;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves {@link OvsdbServer} and {@link OvsdbCluster} parameters. The resource lives in the
 * store of the context that asked for it, so JUnit closes it when that test or class finishes.
 */
public final class OvsdbExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(OvsdbExtension.class);

    /** Creates the extension; JUnit does this through {@link OvsdbTest}. */
    public OvsdbExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext ctx) {
        Class<?> type = p.getParameter().getType();
        return type == OvsdbServer.class || type == OvsdbCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext ctx) {
        Object resource;
        if (p.getParameter().getType() == OvsdbCluster.class) {
            int size = p.findAnnotation(Cluster.class).map(Cluster::size).orElse(3);
            OvsdbCluster cluster = OvsdbCluster.start(size);
            resource = cluster;
            ctx.getStore(NS).put(key(p), (ExtensionContext.Store.CloseableResource) cluster::close);
        } else {
            ServerConfig cfg = p.findAnnotation(ServerConfig.class).orElse(null);
            OvsdbTest test = annotation(ctx);
            boolean inMemory = Boolean.getBoolean(OvsdbServer.IN_MEMORY_PROPERTY) || test != null && test.inMemory();
            OvsdbServer.Builder builder = OvsdbServer.builder()
                    .inMemory(inMemory)
                    .unixSocket(cfg != null && cfg.unixSocket())
                    .ssl(cfg != null && cfg.ssl());
            OvsdbServer server = ServerPlacement.of(cfg, test, OvsdbExtension::lookup).start(builder, name(ctx));
            resource = server;
            ctx.getStore(NS).put(key(p), (ExtensionContext.Store.CloseableResource) server::close);
        }
        return resource;
    }

    private static OvsdbTest annotation(ExtensionContext ctx) {
        for (Class<?> c = ctx.getRequiredTestClass(); c != null; c = c.getEnclosingClass()) {
            OvsdbTest t = c.getAnnotation(OvsdbTest.class);
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /** A system property, else an environment variable, for {@code ${NAME}} in a directory. */
    private static String lookup(String name) {
        String value = System.getProperty(name);
        return value != null ? value : System.getenv(name);
    }

    /** {@code RouterIT-attaches}, or {@code RouterIT} for a class-wide server. */
    private static String name(ExtensionContext ctx) {
        return ctx.getRequiredTestClass().getSimpleName() + ctx.getTestMethod().map(m -> "-" + m.getName()).orElse("");
    }

    private static String key(ParameterContext p) {
        return p.getDeclaringExecutable().toGenericString() + "#" + p.getIndex();
    }
}
