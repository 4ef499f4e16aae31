package dev.ovnj.testkit.inmemory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.ovsdb.rpc.RpcMessage;
import dev.ovnj.ovsdb.rpc.RpcNotification;
import dev.ovnj.ovsdb.rpc.RpcRequest;
import dev.ovnj.ovsdb.rpc.RpcResponse;
import dev.ovnj.ovsdb.schema.TableSchema;
import dev.ovnj.testkit.inmemory.OpParser.Kind;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: dispatches its JSON-RPC requests against the {@link ServerState} and
 * owns its monitors and lock requests. Runs on the server's single event-loop thread, like
 * everything that touches the databases, so no request ever waits for a lock.
 */
final class ConnectionHandler extends SimpleChannelInboundHandler<RpcMessage> {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionHandler.class);

    private final ServerState state;
    private Channel channel;
    final Map<JsonNode, Monitor> monitors = new HashMap<>();
    final Set<String> lockRequests = new HashSet<>();
    private boolean probing;
    /** This connection's own delay, or -1 to follow the server-wide one. */
    private volatile long delayMillis = -1;

    ConnectionHandler(ServerState state) {
        super(RpcMessage.class);
        this.state = state;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        state.sessionOpened(this);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        state.sessionClosed(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing connection {} after {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    void pauseReading() {
        if (channel != null) {
            channel.config().setAutoRead(false);
        }
    }

    void resumeReading() {
        if (channel != null) {
            channel.config().setAutoRead(true);
        }
    }

    void close() {
        if (channel != null) {
            channel.close();
        }
    }

    /** An error reply as ovsdb-server writes it: "error" and "id", no "result" member. */
    void error(JsonNode id, JsonNode error) {
        ObjectNode msg = JsonTrees.object();
        msg.set("error", error);
        msg.set("id", id);
        send(msg);
    }

    void delayMillis(long ms) {
        delayMillis = ms;
    }

    ClientConnection handle() {
        return new ClientConnection(this, channel.remoteAddress());
    }

    void send(Object msg) {
        long own = delayMillis;
        long delay = own >= 0 ? own : state.delayMillis();
        if (delay > 0) {
            channel.eventLoop().schedule(() -> channel.writeAndFlush(msg), delay, TimeUnit.MILLISECONDS);
        } else {
            channel.writeAndFlush(msg);
        }
    }

    void notify(String method, ArrayNode params) {
        send(new RpcNotification(method, params));
    }

    void reply(JsonNode id, JsonNode result) {
        send(RpcResponse.success(id, result));
    }

    /**
     * ovsdb-server's inactivity probe: after an idle interval it sends an echo request, and after
     * another one without hearing anything it drops the connection. Not while paused, as a
     * stopped process sends nothing.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (!(evt instanceof IdleStateEvent) || state.paused()) {
            ctx.fireUserEventTriggered(evt);
            return;
        }
        if (probing) {
            LOG.debug("closing connection {}: no answer to the inactivity probe", ctx.channel().remoteAddress());
            ctx.close();
        } else {
            probing = true;
            send(new RpcRequest(JsonTrees.NODES.textNode("echo"), "echo", JsonTrees.array()));
        }
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, RpcMessage msg) {
        probing = false;
        if (msg instanceof RpcRequest req) {
            handle(req);
        } else if (msg instanceof RpcNotification n && "echo".equals(n.method())) {
            LOG.trace("echo notification ignored");
        }
    }

    private void handle(RpcRequest req) {
        JsonNode id = req.id();
        ArrayNode params = req.params();
        try {
            switch (req.method()) {
                case "transact" -> state.transact(this, id, params, lookup(req).orElse(null));
                case "monitor" -> monitor(req, 1);
                case "monitor_cond" -> monitor(req, 2);
                case "monitor_cond_since" -> monitor(req, 3);
                case "monitor_cond_change" -> conditionChange(req);
                case "monitor_cancel" -> cancel(req);
                case "get_schema" -> lookup(req).ifPresent(db -> reply(id, db.schemaJson()));
                case "list_dbs" -> {
                    // ovsdb-server keeps its databases in a hash map, _Server added first.
                    List<String> opened = new java.util.ArrayList<>();
                    opened.add("_Server");
                    state.databases().keySet().stream().filter(n -> !n.equals("_Server")).forEach(opened::add);
                    ArrayNode names = JsonTrees.array();
                    OvsMemberOrder.names(opened).forEach(names::add);
                    reply(id, names);
                }
                case "get_server_id" -> reply(id, JsonTrees.NODES.textNode(state.serverId().toString()));
                case "lock", "steal", "unlock" -> lock(req);
                case "set_db_change_aware" -> {
                    if (params.size() != 1 || !params.get(0).isBoolean()) {
                        throw OvsdbError.syntax(params, req.method() + ": true or false parameter expected");
                    }
                    reply(id, JsonTrees.object());
                }
                case "echo" -> reply(id, params.deepCopy());
                default -> error(id, JsonTrees.NODES.textNode("unknown method"));
            }
        } catch (OvsdbError e) {
            error(id, e.toJson());
        } catch (RuntimeException e) {
            // A request this server cannot handle must not cost the client its connection.
            LOG.warn("in-memory server failed on {} request: {}", req.method(), e.toString());
            error(id, new OvsdbError("internal error", e.toString()).toJson());
        }
    }

    /** ovsdb_jsonrpc_lookup_db(): answers the error itself and returns empty when the database is unknown. */
    private Optional<Database> lookup(RpcRequest req) {
        ArrayNode params = req.params();
        OvsdbError error;
        if (params.size() == 0 || !params.get(0).isTextual()) {
            error = OvsdbError.syntax(params, req.method() + " request params must begin with <db-name>");
        } else {
            Database db = state.databases().get(params.get(0).textValue());
            if (db != null) {
                return Optional.of(db);
            }
            error = new OvsdbError("unknown database", req.method() + " request specifies unknown database "
                    + params.get(0).textValue(), params);
        }
        error(req.id(), error.toJson());
        return Optional.empty();
    }

    private void monitor(RpcRequest req, int version) throws OvsdbError {
        Optional<Database> found = lookup(req);
        if (found.isEmpty()) {
            return;
        }
        Database db = found.get();
        ArrayNode params = req.params();
        int expected = version == 3 ? 4 : 3;
        if (params.size() != expected && !(version == 3 && params.size() == 3)) {
            throw OvsdbError.syntax(params, "invalid parameters");
        }
        JsonNode monitorId = params.get(1);
        JsonNode requests = params.get(2);
        if (!requests.isObject()) {
            throw OvsdbError.syntax(requests, "monitor-requests must be object");
        }
        if (monitors.containsKey(monitorId)) {
            throw OvsdbError.syntax(monitorId, "duplicate monitor ID");
        }
        Map<String, Monitor.TableMonitor> tables = new LinkedHashMap<>();
        for (var it = requests.properties().iterator(); it.hasNext();) {
            var e = it.next();
            TableSchema t = db.schema().findTable(e.getKey()).orElse(null);
            if (t == null) {
                throw new OvsdbError("syntax error", "no table named " + e.getKey());
            }
            Monitor.TableMonitor tm = new Monitor.TableMonitor(t);
            JsonNode value = e.getValue();
            if (value.isArray()) {
                for (JsonNode r : value) {
                    parseRequest(tm, r, version);
                }
            } else {
                parseRequest(tm, value, version);
            }
            tables.put(e.getKey(), tm);
        }
        UUID lastId = null;
        if (version == 3 && params.size() == 4) {
            JsonNode last = params.get(3);
            if (!last.isTextual()) {
                throw OvsdbError.syntax(last, "last-txn-id must be string");
            }
            lastId = Monitor.uuidOrNull(last.textValue());
            if (lastId == null) {
                throw OvsdbError.syntax(last, "last-txn-id must be UUID format.");
            }
        }
        Monitor m = new Monitor(monitorId.deepCopy(), version, db, tables);
        JsonNode result;
        if (version == 3) {
            Optional<List<Database.Commit>> since = lastId == null || !state.history() ? Optional.empty() : db.since(lastId);
            ArrayNode r = JsonTrees.array();
            r.add(since.isPresent());
            r.add(state.history() ? db.lastTxnId().toString() : Database.ZERO.toString());
            r.add(since.map(c -> m.updates(Monitor.merge(c))).orElseGet(m::initial));
            result = r;
        } else {
            result = m.initial();
        }
        monitors.put(m.id, m);
        reply(req.id(), result);
    }

    private void parseRequest(Monitor.TableMonitor tm, JsonNode r, int version) throws OvsdbError {
        TableSchema t = tm.table;
        OpParser p = new OpParser(r, "table " + t.name());
        JsonNode columns = p.member("columns", Kind.ARRAY, true);
        JsonNode select = p.member("select", Kind.OBJECT, true);
        JsonNode where = version > 1 ? p.member("where", Kind.ARRAY, true) : null;
        OvsdbError err = p.finish();
        if (err != null) {
            throw err;
        }
        int sel = Monitor.ALL;
        if (select != null) {
            OpParser sp = new OpParser(select, "table " + t.name() + " select");
            sel = 0;
            String[] names = {"initial", "insert", "delete", "modify"};
            int[] bits = {Monitor.INITIAL, Monitor.INSERT, Monitor.DELETE, Monitor.MODIFY};
            for (int i = 0; i < names.length; i++) {
                JsonNode b = sp.member(names[i], Kind.BOOLEAN, true);
                if (b == null || b.booleanValue()) {
                    sel |= bits[i];
                }
            }
            OvsdbError serr = sp.finish();
            if (serr != null) {
                throw serr;
            }
        }
        tm.select |= sel;
        if (columns != null) {
            for (JsonNode c : columns) {
                if (!c.isTextual()) {
                    throw OvsdbError.syntax(columns, "array of column names expected");
                }
                if (t.findColumn(c.textValue()).isEmpty()) {
                    throw OvsdbError.syntax(columns, c.textValue() + " is not a valid column name");
                }
                int idx = t.columnIndex(c.textValue());
                if (tm.columns.contains(idx)) {
                    throw OvsdbError.syntax(columns, "column " + c.textValue() + " mentioned more than once");
                }
                tm.columns.add(idx);
                tm.columnSelect.add(sel);
            }
        } else {
            for (int i = 1; i < t.columns().size(); i++) {
                if (!tm.columns.contains(i)) {
                    tm.columns.add(i);
                    tm.columnSelect.add(sel);
                }
            }
        }
        if (where != null) {
            tm.condition = Where.parse(t, where, null);
        }
    }

    private void conditionChange(RpcRequest req) throws OvsdbError {
        ArrayNode params = req.params();
        if (params.size() != 3) {
            throw OvsdbError.syntax(params, "invalid parameters");
        }
        Monitor m = monitors.get(params.get(0));
        if (m == null) {
            throw OvsdbError.syntax(params.get(0), "unknown monitor session");
        }
        JsonNode newId = params.get(1);
        boolean changingId = !newId.equals(m.id);
        if (changingId && monitors.containsKey(newId)) {
            throw OvsdbError.syntax(newId, "duplicate monitor ID");
        }
        JsonNode requests = params.get(2);
        if (!requests.isObject()) {
            throw new OvsdbError("syntax error", "monitor-cond-change-requests must be object");
        }
        Map<String, Where> newConditions = new HashMap<>();
        for (var it = requests.properties().iterator(); it.hasNext();) {
            var e = it.next();
            TableSchema t = m.db.schema().findTable(e.getKey()).orElse(null);
            if (t == null) {
                throw new OvsdbError("syntax error", "no table named " + e.getKey());
            }
            if (!m.tables.containsKey(e.getKey())) {
                throw new OvsdbError("syntax error", "no table named " + e.getKey() + " in monitor session");
            }
            if (!e.getValue().isArray()) {
                throw new OvsdbError("syntax error", "table " + e.getKey() + " no monitor-cond-change JSON array");
            }
            for (JsonNode r : e.getValue()) {
                if (r.has("columns")) {
                    throw OvsdbError.syntax(r, "changing columns is unsupported");
                }
                JsonNode where = r.get("where");
                if (where != null && where.isArray()) {
                    newConditions.put(e.getKey(), Where.parse(t, where, null));
                }
            }
        }
        Map<String, Where> old = new HashMap<>();
        newConditions.forEach((table, c) -> {
            Monitor.TableMonitor tm = m.tables.get(table);
            old.put(table, tm.condition);
            tm.condition = c;
        });
        Monitor target = m;
        if (changingId) {
            monitors.remove(m.id);
            target = new Monitor(newId.deepCopy(), m.version, m.db, m.tables);
            monitors.put(target.id, target);
        }
        ObjectNode update = target.conditionChange(old);
        if (update.size() > 0) {
            ArrayNode p = JsonTrees.array().add(target.id);
            if (target.version == 3) {
                p.add(state.history() ? target.db.lastTxnId().toString() : Database.ZERO.toString());
            }
            p.add(update);
            notify(target.version == 3 ? "update3" : "update2", p);
        }
        reply(req.id(), JsonTrees.object());
    }

    private void cancel(RpcRequest req) {
        ArrayNode params = req.params();
        if (params.size() != 1) {
            error(req.id(), JsonTrees.NODES.textNode("invalid parameters"));
        } else if (monitors.remove(params.get(0)) == null) {
            error(req.id(), JsonTrees.NODES.textNode("unknown monitor"));
        } else {
            reply(req.id(), JsonTrees.object());
        }
    }

    private void lock(RpcRequest req) throws OvsdbError {
        if (state.readOnly()) {
            error(req.id(), JsonTrees.NODES.textNode("lock and unlock methods not allowed, DB server is read only."));
            return;
        }
        ArrayNode params = req.params();
        if (params.size() != 1 || !params.get(0).isTextual() || !params.get(0).textValue().matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw OvsdbError.syntax(params, req.method() + " request params must be <id>");
        }
        String name = params.get(0).textValue();
        switch (req.method()) {
            case "unlock" -> {
                if (!lockRequests.contains(name)) {
                    throw OvsdbError.syntax(params, "unlock: \"unlock\" without \"lock\" or \"steal\"");
                }
                state.locks().unlock(this, name);
                reply(req.id(), JsonTrees.object());
            }
            default -> {
                if (lockRequests.contains(name)) {
                    throw OvsdbError.syntax(params, "must issue \"unlock\" before new \"" + req.method() + "\"");
                }
                boolean locked = state.locks().lock(this, name, "steal".equals(req.method()));
                reply(req.id(), JsonTrees.object().put("locked", locked));
            }
        }
    }
}
