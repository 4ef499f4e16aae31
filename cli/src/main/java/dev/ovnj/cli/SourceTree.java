package dev.ovnj.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a YAML or JSON document into {@link SourceNode}s. Jackson's data binding would lose the
 * line of each value, and the line is what makes an error in a hand-written file quick to fix, so
 * the tree is built from the token stream instead.
 */
final class SourceTree {

    private SourceTree() {
    }

    /**
     * Reads a file: JSON when its name ends in {@code .json} or its first character is
     * <code>{</code>, YAML otherwise.
     *
     * @param file the file
     * @return the root node
     * @throws DesiredStateException naming the file and line of the problem
     */
    static SourceNode read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new DesiredStateException(file + ": no such file");
        } catch (IOException e) {
            throw new DesiredStateException(file + ": cannot read: " + e.getMessage(), e);
        }
        return parse(file.toString(), text);
    }

    /**
     * Parses text.
     *
     * @param name the file name used in messages (and to tell JSON by its extension)
     * @param text the document
     * @return the root node
     * @throws DesiredStateException naming the file and line of the problem
     */
    static SourceNode parse(String name, String text) {
        boolean json = name.toLowerCase(Locale.ROOT).endsWith(".json") || text.stripLeading().startsWith("{");
        JsonFactory factory = json ? new JsonFactory() : new YAMLFactory();
        try (JsonParser p = factory.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new DesiredStateException(name + ": the file is empty");
            }
            SourceNode root = value(name, p, line(p));
            if (p.nextToken() != null) {
                throw new DesiredStateException(name + ":" + line(p) + ": only one document is allowed");
            }
            return root;
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new DesiredStateException(name + ":" + line + ": not valid " + (json ? "JSON" : "YAML") + ": "
                    + problem(e.getOriginalMessage()), e);
        } catch (IOException e) {
            throw new DesiredStateException(name + ": cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * The parser's message without the parts that only point into the text: SnakeYAML says
     * "while parsing a block collection / in 'reader', line 5, column 7: / (the line) / ^ /
     * expected <block end>, but found '<block mapping start>' / in 'reader', line 6, column 8: ...",
     * whose first line alone says nothing useful; this keeps "while parsing a block collection
     * (line 5, column 7): expected <block end>, but found '<block mapping start>' (line 6, column 8)".
     */
    static String problem(String message) {
        StringBuilder out = new StringBuilder();
        for (String l : message.lines().toList()) {
            String t = l.strip();
            if (t.startsWith("in 'reader', ")) {
                out.append(" (").append(t.substring("in 'reader', ".length()).replaceAll(":$", "")).append(')');
            } else if (!t.isEmpty() && !t.equals("^") && !l.startsWith(" ")) {
                out.append(out.length() == 0 ? "" : ": ").append(t);
            }
        }
        return out.toString();
    }

    private static SourceNode value(String name, JsonParser p, int line) throws IOException {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                Map<String, SourceNode> fields = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    int keyLine = line(p);
                    p.nextToken();
                    if (fields.put(key, value(name, p, keyLine)) != null) {
                        throw new DesiredStateException(name + ":" + keyLine + ": field \"" + key + "\" is given twice");
                    }
                }
                return new SourceNode(fields, line);
            }
            case START_ARRAY -> {
                List<SourceNode> elements = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    elements.add(value(name, p, line(p)));
                }
                return new SourceNode(elements, line);
            }
            case VALUE_STRING -> {
                return new SourceNode(p.getText(), line);
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                return new SourceNode(p.getNumberValue(), line);
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return new SourceNode(p.getBooleanValue(), line);
            }
            case VALUE_NULL -> {
                return new SourceNode(null, line);
            }
            default -> throw new DesiredStateException(name + ":" + line + ": unexpected " + t);
        }
    }

    private static int line(JsonParser p) {
        return p.currentTokenLocation().getLineNr();
    }
}
