// Generated from schemas/webpolicy.schema.json (PolicySchemaTests keeps it so: record with
// WEBPOLICY_RECORD=1). The binary carries it for `webpolicy init` and `webpolicy schema`, which
// give a team's repository the schema its editor completes policies with, and for `webpolicy lsp`'s
// completion and key hover.
public enum PolicySchema {
    public static let text = ##"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:webpolicy:schema:policy:1",
  "title": "webpolicy policy, format version 1",
  "description": "A web-view policy for an iOS app: plain-http hosts, URL schemes, WebKit content rules, cookies and interception. See docs/policy-format.md.",
  "type": "object",
  "required": [
    "webpolicy",
    "name"
  ],
  "properties": {
    "webpolicy": {
      "description": "The policy format version.",
      "const": 1
    },
    "name": {
      "$ref": "#/$defs/text",
      "description": "The policy's name; compiled artefacts are named after it."
    },
    "description": {
      "$ref": "#/$defs/text",
      "description": "Free text for people."
    },
    "target": {
      "$ref": "#/$defs/target",
      "description": "What the app ships to: its oldest iOS (`ios`) and where it is distributed. Defaults to iOS 15.0 and the App Store."
    },
    "include": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/text"
      },
      "description": "Policy files merged before this one, in order, relative to this file."
    },
    "http-allowlist": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/httpAllowlistEntry"
      },
      "description": "Hosts the web view may load over plain http."
    },
    "scheme-allowlist": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/schemeAllowlistEntry"
      },
      "description": "Non-web URL schemes the web view may hand to the system."
    },
    "content-rules": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/contentRule"
      },
      "description": "WebKit content rules, in order."
    },
    "content-rule-lists": {
      "type": "array",
      "description": "WebKit content-blocker lists the policy does not own (a vendor's tracker list, a downloaded one), each added to the web views as a list of its own after the policy's rules. Checked with the port of WebKit's parser; compiled by copying each as it is, under an identifier with its content hash.",
      "items": {
        "$ref": "#/$defs/contentRuleListEntry"
      }
    },
    "cookies": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/cookie"
      },
      "description": "Cookies the app injects into the web view."
    },
    "interception": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/interceptionRule"
      },
      "description": "Requests the app answers itself."
    },
    "navigation": {
      "$ref": "#/$defs/navigation",
      "description": "Where the web view may go: the documents its main frame and iframes may show, what a link elsewhere and a new window do (docs/policy-format.md)."
    },
    "app-bound-domains": {
      "$ref": "#/$defs/appBoundDomains",
      "description": "Apple's App-Bound Domains: WKAppBoundDomains in Info.plist (at most 10) and limitsNavigationsToAppBoundDomains (iOS 14+)."
    },
    "bridges": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/bridge"
      },
      "description": "JavaScript bridges: the script message handlers the app registers (window.webkit.messageHandlers.<name>) and which frames of which origins may call each (docs/policy-format.md)."
    },
    "webview": {
      "$ref": "#/$defs/webView",
      "description": "The web view's configuration, applied before the view exists; absent keys keep the platform's defaults."
    },
    "runtime-hosts": {
      "type": "object",
      "propertyNames": {
        "pattern": "^[A-Za-z][A-Za-z0-9_-]*$"
      },
      "additionalProperties": {
        "$ref": "#/$defs/runtimeHost"
      },
      "description": "Servers named by role because the app learns their address at run time (the server the user signs in to): '${name}' stands for the bound origin wherever a host pattern goes (docs/policy-format.md)."
    }
  },
  "patternProperties": {
    "^x-": {
      "description": "Ignored: a place for shared YAML anchors."
    }
  },
  "additionalProperties": false,
  "$defs": {
    "text": {
      "type": [
        "string",
        "number",
        "boolean"
      ],
      "description": "A string; plain numbers and booleans are read as written."
    },
    "host": {
      "type": [
        "string",
        "number",
        "boolean"
      ],
      "pattern": "^(?:(?:\\*\\.)?\\$\\{[A-Za-z][A-Za-z0-9_-]*\\}|(?:\\*\\.)?[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*|(?=(?:[^:]*:){2})(?:\\[[0-9A-Fa-f.:]+\\]|[0-9A-Fa-f.:]+))$",
      "maxLength": 255,
      "description": "A lowercase ASCII (punycode) host name or IP literal; '*.example.com' means any subdomain of example.com; '${server}' the host a runtime-hosts role is bound to."
    },
    "literalHost": {
      "type": [
        "string",
        "number",
        "boolean"
      ],
      "pattern": "^(?:(?:\\*\\.)?[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*|(?=(?:[^:]*:){2})(?:\\[[0-9A-Fa-f.:]+\\]|[0-9A-Fa-f.:]+))$",
      "maxLength": 255,
      "description": "A lowercase ASCII (punycode) host name or IP literal; '*.example.com' means any subdomain of example.com. No runtime-hosts role: a content rule is compiled before the app binds one."
    },
    "target": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "ios": {
          "description": "The minimum iOS version the app supports (11 or later).",
          "anyOf": [
            {
              "type": "string",
              "pattern": "^(?:1[1-9]|[2-9][0-9]|[1-9][0-9]{2,3})(?:\\.[0-9]{1,4}){0,2}$"
            },
            {
              "type": "number",
              "minimum": 11
            }
          ]
        },
        "distribution": {
          "enum": [
            "app-store",
            "enterprise",
            "development"
          ],
          "description": "Where the app ships; defaults to app-store."
        }
      }
    },
    "httpAllowlistEntry": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "host"
      ],
      "properties": {
        "host": {
          "$ref": "#/$defs/host",
          "description": "A host pattern: `legacy.example.com`, or `*.lan.example.com` for any subdomain of lan.example.com; `\"${server}\"` for a runtime-hosts role."
        },
        "include-subdomains": {
          "type": "boolean",
          "description": "Also allow every subdomain (ATS NSIncludesSubdomains)."
        },
        "reason": {
          "$ref": "#/$defs/text",
          "description": "Why plain http is needed; App Review asks."
        }
      }
    },
    "schemeAllowlistEntry": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "scheme"
      ],
      "properties": {
        "scheme": {
          "type": [
            "string",
            "number",
            "boolean"
          ],
          "pattern": "^[a-z][a-z0-9+.-]*$",
          "description": "A lowercase RFC 3986 scheme, without ':'."
        },
        "hosts": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/text"
          },
          "description": "Only URLs with one of these hosts."
        },
        "paths": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/text"
          },
          "description": "Only URLs whose path starts with one of these."
        },
        "reason": {
          "$ref": "#/$defs/text",
          "description": "Why the scheme is needed."
        }
      }
    },
    "contentRule": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "action"
      ],
      "properties": {
        "id": {
          "$ref": "#/$defs/text",
          "description": "A name for messages, traces and the compiled list."
        },
        "description": {
          "$ref": "#/$defs/text",
          "description": "Free text."
        },
        "action": {
          "enum": [
            "block",
            "block-cookies",
            "css-display-none",
            "ignore-previous-rules",
            "ignore-following-rules",
            "make-https",
            "notify",
            "redirect",
            "modify-headers"
          ],
          "description": "What the rule does to a load it matches: block, block-cookies, css-display-none, ignore-previous-rules, ignore-following-rules, make-https, notify, redirect or modify-headers (WebKit's action types)."
        },
        "url-filter": {
          "$ref": "#/$defs/text",
          "description": "A WebKit url-filter regex, matched against the request URL."
        },
        "hosts": {
          "type": "array",
          "minItems": 1,
          "items": {
            "$ref": "#/$defs/literalHost"
          },
          "description": "Sugar: hosts compiled into escaped url-filters."
        },
        "url-filter-is-case-sensitive": {
          "type": "boolean",
          "description": "true to match the url-filter case-sensitively. Default false."
        },
        "top-url-filter-is-case-sensitive": {
          "type": "boolean",
          "description": "true to match the top-URL regexes (and the if-domain patterns WebKit derives) case-sensitively."
        },
        "frame-url-filter-is-case-sensitive": {
          "type": "boolean",
          "description": "true to match the frame-URL regexes case-sensitively."
        },
        "resource-type": {
          "type": "array",
          "items": {
            "enum": [
              "document",
              "top-document",
              "child-document",
              "image",
              "style-sheet",
              "script",
              "font",
              "raw",
              "svg-document",
              "media",
              "popup",
              "ping",
              "fetch",
              "websocket",
              "other",
              "csp-report"
            ]
          },
          "description": "The kinds of load the rule applies to; omitted, every type. raw is fetch, websocket, other and ping; document is top and child documents."
        },
        "load-type": {
          "type": "array",
          "items": {
            "enum": [
              "first-party",
              "third-party"
            ]
          },
          "description": "first-party, third-party, or both: the load's registrable domain against the top document's."
        },
        "load-context": {
          "type": "array",
          "items": {
            "enum": [
              "top-frame",
              "child-frame"
            ]
          },
          "description": "top-frame, child-frame: whether the request comes from the main frame."
        },
        "request-method": {
          "anyOf": [
            {
              "$ref": "#/$defs/requestMethod"
            },
            {
              "type": "array",
              "minItems": 1,
              "items": {
                "$ref": "#/$defs/requestMethod"
              }
            }
          ],
          "description": "The HTTP methods the rule applies to, in any case. WebKit takes one method per rule; a list is sugar for one rule per method."
        },
        "if-domain": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/text"
          },
          "description": "Apply only when the top document's host is one of these (`*example.com` includes subdomains)."
        },
        "unless-domain": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/text"
          },
          "description": "Apply unless the top document's host is one of these."
        },
        "if-top-url": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/text"
          },
          "description": "Apply only when the top document's URL matches one of these url-filter regexes."
        },
        "unless-top-url": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/text"
          },
          "description": "Apply unless the top document's URL matches one of these regexes."
        },
        "if-frame-url": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/text"
          },
          "description": "Apply only when the requesting frame's URL matches one of these regexes."
        },
        "unless-frame-url": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/text"
          },
          "description": "Apply unless the requesting frame's URL matches one of these regexes."
        },
        "selector": {
          "$ref": "#/$defs/text",
          "description": "css-display-none: the CSS selector of elements to hide."
        },
        "notification": {
          "$ref": "#/$defs/text",
          "description": "notify: the notification string."
        },
        "redirect": {
          "$ref": "#/$defs/redirect",
          "description": "For action redirect: exactly one of url, extension-path, regex-substitution or transform."
        },
        "priority": {
          "type": "integer",
          "minimum": 0,
          "maximum": 2147483647,
          "description": "modify-headers: higher priorities apply first."
        },
        "request-headers": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/headerOperation"
          },
          "description": "For action modify-headers: the request's header operations (append, set, remove)."
        },
        "response-headers": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/headerOperation"
          },
          "description": "For action modify-headers: the response's header operations (append, set, remove)."
        }
      },
      "oneOf": [
        {
          "required": [
            "url-filter"
          ]
        },
        {
          "required": [
            "hosts"
          ]
        }
      ],
      "allOf": [
        {
          "if": {
            "required": [
              "action"
            ],
            "properties": {
              "action": {
                "const": "css-display-none"
              }
            }
          },
          "then": {
            "required": [
              "selector"
            ]
          },
          "else": {
            "not": {
              "required": [
                "selector"
              ]
            }
          }
        },
        {
          "if": {
            "required": [
              "action"
            ],
            "properties": {
              "action": {
                "const": "notify"
              }
            }
          },
          "then": {
            "required": [
              "notification"
            ]
          },
          "else": {
            "not": {
              "required": [
                "notification"
              ]
            }
          }
        },
        {
          "if": {
            "required": [
              "action"
            ],
            "properties": {
              "action": {
                "const": "redirect"
              }
            }
          },
          "then": {
            "required": [
              "redirect"
            ]
          },
          "else": {
            "not": {
              "required": [
                "redirect"
              ]
            }
          }
        },
        {
          "if": {
            "required": [
              "action"
            ],
            "properties": {
              "action": {
                "const": "modify-headers"
              }
            }
          },
          "then": {
            "required": [
              "priority"
            ]
          },
          "else": {
            "not": {
              "required": [
                "priority"
              ]
            }
          }
        },
        {
          "if": {
            "required": [
              "action"
            ],
            "properties": {
              "action": {
                "const": "modify-headers"
              }
            }
          },
          "then": {},
          "else": {
            "not": {
              "required": [
                "request-headers"
              ]
            }
          }
        },
        {
          "if": {
            "required": [
              "action"
            ],
            "properties": {
              "action": {
                "const": "modify-headers"
              }
            }
          },
          "then": {},
          "else": {
            "not": {
              "required": [
                "response-headers"
              ]
            }
          }
        }
      ]
    },
    "contentRuleListEntry": {
      "type": "object",
      "required": [
        "path"
      ],
      "additionalProperties": false,
      "properties": {
        "path": {
          "type": "string",
          "minLength": 1,
          "description": "The list's JSON file, relative to this policy file."
        },
        "id": {
          "type": "string",
          "minLength": 1,
          "description": "The list's name in identifiers and reports (default: the file name without .json)."
        }
      }
    },
    "requestMethod": {
      "type": "string",
      "pattern": "^(?:[gG][eE][tT]|[hH][eE][aA][dD]|[oO][pP][tT][iI][oO][nN][sS]|[tT][rR][aA][cC][eE]|[pP][uU][tT]|[dD][eE][lL][eE][tT][eE]|[pP][oO][sS][tT]|[pP][aA][tT][cC][hH]|[cC][oO][nN][nN][eE][cC][tT])$"
    },
    "redirect": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "url": {
          "$ref": "#/$defs/text",
          "description": "The URL the load goes to instead."
        },
        "extension-path": {
          "$ref": "#/$defs/text",
          "description": "A path inside the Safari web extension that loads instead (starts with /)."
        },
        "regex-substitution": {
          "$ref": "#/$defs/text",
          "description": "The redirect URL, with \\1… replaced by the url-filter's capture groups."
        },
        "transform": {
          "$ref": "#/$defs/urlTransform",
          "description": "Parts of the URL to change: scheme, host, port, path, query, fragment, username, password, or query-transform."
        }
      },
      "oneOf": [
        {
          "required": [
            "url"
          ]
        },
        {
          "required": [
            "extension-path"
          ]
        },
        {
          "required": [
            "regex-substitution"
          ]
        },
        {
          "required": [
            "transform"
          ]
        }
      ]
    },
    "urlTransform": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "scheme": {
          "$ref": "#/$defs/text",
          "description": "The scheme to use instead."
        },
        "host": {
          "$ref": "#/$defs/text",
          "description": "The host to use instead."
        },
        "port": {
          "$ref": "#/$defs/text",
          "description": "The port to use instead; \"\" removes it."
        },
        "path": {
          "$ref": "#/$defs/text",
          "description": "The path to use instead."
        },
        "query": {
          "$ref": "#/$defs/text",
          "description": "The query to use instead: \"\" or starting with ?."
        },
        "fragment": {
          "$ref": "#/$defs/text",
          "description": "The fragment to use instead: \"\" or starting with #."
        },
        "username": {
          "$ref": "#/$defs/text",
          "description": "The user name to use instead."
        },
        "password": {
          "$ref": "#/$defs/text",
          "description": "The password to use instead."
        },
        "query-transform": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "remove-parameters": {
              "type": "array",
              "items": {
                "$ref": "#/$defs/text"
              },
              "description": "The names of the query parameters to remove."
            },
            "add-or-replace-parameters": {
              "type": "array",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "key",
                  "value"
                ],
                "properties": {
                  "key": {
                    "$ref": "#/$defs/text",
                    "description": "The parameter's name."
                  },
                  "value": {
                    "$ref": "#/$defs/text",
                    "description": "The parameter's value."
                  },
                  "replace-only": {
                    "type": "boolean",
                    "description": "true: only replace the parameter when the URL has it, never add it."
                  }
                }
              },
              "description": "Query parameters to add, or to replace when present."
            }
          },
          "description": "Query parameters to remove, or to add or replace."
        }
      }
    },
    "headerOperation": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "operation",
        "header"
      ],
      "properties": {
        "operation": {
          "enum": [
            "set",
            "append",
            "remove"
          ],
          "description": "append, set or remove."
        },
        "header": {
          "$ref": "#/$defs/text",
          "description": "The header's name."
        },
        "value": {
          "$ref": "#/$defs/text",
          "description": "The header's value (for append and set)."
        }
      },
      "if": {
        "properties": {
          "operation": {
            "enum": [
              "set",
              "append"
            ]
          }
        }
      },
      "then": {
        "required": [
          "value"
        ]
      }
    },
    "cookie": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name",
        "value",
        "domain"
      ],
      "properties": {
        "name": {
          "type": [
            "string",
            "number",
            "boolean"
          ],
          "pattern": "^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$",
          "description": "An RFC 6265 token."
        },
        "value": {
          "type": [
            "string",
            "number",
            "boolean"
          ],
          "pattern": "^(?:\"[\\x21\\x23-\\x2B\\x2D-\\x3A\\x3C-\\x5B\\x5D-\\x7E]*\"|[\\x21\\x23-\\x2B\\x2D-\\x3A\\x3C-\\x5B\\x5D-\\x7E]*)$",
          "description": "RFC 6265 cookie octets; ${NAME} placeholders are filled in at run time."
        },
        "domain": {
          "type": [
            "string",
            "number",
            "boolean"
          ],
          "pattern": "^(?:\\$\\{[A-Za-z][A-Za-z0-9_-]*\\}|[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*|(?=(?:[^:]*:){2})(?:\\[[0-9A-Fa-f.:]+\\]|[0-9A-Fa-f.:]+))$",
          "description": "The cookie's Domain: this host and its subdomains (unless host-only)."
        },
        "host-only": {
          "type": "boolean",
          "description": "Send the cookie to the domain's exact host only (no Domain attribute)."
        },
        "path": {
          "type": [
            "string",
            "number",
            "boolean"
          ],
          "pattern": "^/[^\\x00-\\x1F\\x7F;]*$",
          "description": "The cookie's Path, starting with /. Default /."
        },
        "secure": {
          "type": "boolean",
          "description": "Sent over https only. Default false."
        },
        "http-only": {
          "type": "boolean",
          "description": "Invisible to JavaScript. Default false."
        },
        "same-site": {
          "enum": [
            "strict",
            "lax",
            "none"
          ],
          "description": "strict, lax or none."
        },
        "expires": {
          "type": "string",
          "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})$",
          "description": "An RFC 3339 timestamp with a time zone (2027-12-31T23:59:59Z)."
        },
        "max-age": {
          "type": "integer",
          "description": "Seconds; wins over expires. Neither: a session cookie."
        },
        "via": {
          "enum": [
            "cookie-store",
            "header",
            "document-cookie"
          ],
          "description": "How the cookie reaches the web view: cookie-store (WKHTTPCookieStore, the default), header (a Cookie header on the first request only) or document-cookie (document.cookie from a script at document start, so never http-only)."
        },
        "description": {
          "$ref": "#/$defs/text",
          "description": "Free text."
        }
      }
    },
    "interceptionRule": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "scheme"
      ],
      "properties": {
        "id": {
          "$ref": "#/$defs/text",
          "description": "A name for messages and the manifest."
        },
        "description": {
          "$ref": "#/$defs/text",
          "description": "Free text."
        },
        "scheme": {
          "type": [
            "string",
            "number",
            "boolean"
          ],
          "pattern": "^[a-z][a-z0-9+.-]*$",
          "description": "A custom scheme answered by a WKURLSchemeHandler, or http/https for interception of web requests (private API on WKWebView)."
        },
        "hosts": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/host"
          },
          "description": "Only these host patterns."
        },
        "paths": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/text"
          },
          "description": "Only paths starting with one of these."
        },
        "methods": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/requestMethod"
          },
          "description": "Only these HTTP methods, in any case."
        },
        "serve": {
          "$ref": "#/$defs/text",
          "description": "A bundle folder whose files answer the requests."
        },
        "handler": {
          "$ref": "#/$defs/text",
          "description": "The name of the app's handler that answers them."
        }
      },
      "oneOf": [
        {
          "required": [
            "serve"
          ]
        },
        {
          "required": [
            "handler"
          ]
        }
      ]
    },
    "navigationEntry": {
      "type": "object",
      "additionalProperties": false,
      "oneOf": [
        {
          "required": [
            "host"
          ]
        },
        {
          "required": [
            "scheme"
          ],
          "properties": {
            "include-subdomains": false,
            "paths": false,
            "schemes": false
          }
        }
      ],
      "properties": {
        "host": {
          "$ref": "#/$defs/host",
          "description": "A host pattern, as in http-allowlist: shop.example.com, *.shop.example.com (its subdomains), or with include-subdomains; \"${server}\" for a role."
        },
        "scheme": {
          "type": [
            "string",
            "number",
            "boolean"
          ],
          "pattern": "^[a-zA-Z][a-zA-Z0-9+.-]*$",
          "not": {
            "pattern": "^[hH][tT][tT][pP][sS]?$"
          },
          "description": "Pages only: every page on a scheme the app serves itself (interception), in place of host."
        },
        "include-subdomains": {
          "type": "boolean",
          "description": "Also every subdomain, as in http-allowlist."
        },
        "paths": {
          "type": "array",
          "items": {
            "type": "string",
            "pattern": "^/"
          },
          "description": "Path prefixes; absent: any path."
        },
        "schemes": {
          "type": "array",
          "items": {
            "type": "string",
            "pattern": "^[hH][tT][tT][pP][sS]?$"
          },
          "description": "Web schemes the entry admits; default [https]. http needs the host on the http-allowlist."
        },
        "reason": {
          "$ref": "#/$defs/text",
          "description": "Why the view shows these documents."
        }
      }
    },
    "navigation": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "pages": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/navigationEntry"
          },
          "description": "Documents the main frame may show."
        },
        "frames": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/navigationEntry"
          },
          "description": "Documents iframes may show besides pages; none listed: none."
        },
        "otherwise": {
          "enum": [
            "open-externally",
            "block"
          ],
          "description": "A link the user activates outside pages: open-externally (default) or block. A script, a redirect or a form outside pages is always blocked."
        },
        "new-windows": {
          "enum": [
            "same-view",
            "open-externally",
            "block"
          ],
          "description": "target=_blank and window.open: same-view (default), open-externally or block."
        }
      }
    },
    "appBoundDomains": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "domains"
      ],
      "properties": {
        "domains": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/text"
          },
          "description": "WKAppBoundDomains: domains (WebKit keeps each one's registrable domain) or 'scheme:' entries; WebKit reads the first 10."
        },
        "limit-navigations": {
          "type": "boolean",
          "description": "limitsNavigationsToAppBoundDomains: WebKit refuses main-frame navigations elsewhere."
        }
      }
    },
    "bridge": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name",
        "origins"
      ],
      "properties": {
        "name": {
          "$ref": "#/$defs/text",
          "description": "The handler's name: window.webkit.messageHandlers.<name>."
        },
        "origins": {
          "type": "array",
          "items": {
            "type": "string",
            "pattern": "^(\\*|(\\*\\.)?(\\$\\{[A-Za-z][A-Za-z0-9_-]*\\}|[^*/:]+))$"
          },
          "description": "Host patterns whose frames may call it: host, *.host (its subdomains), '${server}' (the origin a runtime-hosts role is bound to), * (any host)."
        },
        "schemes": {
          "type": "array",
          "items": {
            "type": "string",
            "pattern": "^[A-Za-z][A-Za-z0-9+.-]*$"
          },
          "description": "Schemes of those frames; default [https]. http needs the host on the http-allowlist; an app's own scheme, an interception rule."
        },
        "frames": {
          "enum": [
            "main",
            "all"
          ],
          "description": "main (default): the main frame's document only; all: iframes too."
        },
        "world": {
          "$ref": "#/$defs/text",
          "description": "The WKContentWorld it is added in: page (default), client (.defaultClient) or a name of the app's."
        },
        "reply": {
          "type": "boolean",
          "description": "Registered as a WKScriptMessageHandlerWithReply (iOS 14): postMessage returns a promise."
        },
        "description": {
          "$ref": "#/$defs/text",
          "description": "What the bridge is for, for reviewers."
        }
      }
    },
    "webView": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "javascript": {
          "type": "boolean",
          "description": "WKWebpagePreferences.allowsContentJavaScript (iOS 14.0; default true): false stops the page's own scripts, not the app's user scripts."
        },
        "javascript-can-open-windows": {
          "type": "boolean",
          "description": "WKPreferences.javaScriptCanOpenWindowsAutomatically (iOS 8.0; default false): true lets scripts open windows without a tap."
        },
        "inspectable": {
          "type": "boolean",
          "description": "WKWebView.isInspectable (iOS 16.4; default false): true lets Safari's Web Inspector read and change the page."
        },
        "upgrade-known-hosts-to-https": {
          "type": "boolean",
          "description": "WKWebViewConfiguration.upgradeKnownHostsToHTTPS (iOS 14.5; default true): http loads of hosts known to serve https are made over https."
        },
        "fraudulent-website-warning": {
          "type": "boolean",
          "description": "WKPreferences.isFraudulentWebsiteWarningEnabled (iOS 13.0; default true): the Safe Browsing warning before a page known for phishing or malware."
        },
        "element-fullscreen": {
          "type": "boolean",
          "description": "WKPreferences.isElementFullscreenEnabled (iOS 15.4; default false): true lets the page's requestFullscreen() take the whole screen, a video player or a game."
        },
        "file-access": {
          "$ref": "#/$defs/text",
          "description": "none (default), or the folder of the app bundle loadFileURL(_:allowingReadAccessTo:) may read."
        },
        "data-detectors": {
          "type": "array",
          "items": {
            "enum": [
              "phone-number",
              "link",
              "address",
              "calendar-event",
              "tracking-number",
              "flight-number",
              "lookup-suggestion",
              "all"
            ]
          },
          "description": "WKWebViewConfiguration.dataDetectorTypes (iOS 10; default none)."
        },
        "data-store": {
          "oneOf": [
            {
              "enum": [
                "default",
                "non-persistent"
              ]
            },
            {
              "type": "object",
              "required": [
                "profile"
              ],
              "additionalProperties": false,
              "properties": {
                "profile": {
                  "$ref": "#/$defs/text",
                  "description": "The store's name; the app opens it with WKWebsiteDataStore(forIdentifier:) and a UUID derived from the name (iOS 17)."
                }
              }
            }
          ],
          "description": "Where the view keeps cookies, caches and storage: WKWebsiteDataStore.default(), .nonPersistent() (in memory), or a persistent store of its own. Absent: the store the app's code gives the view."
        },
        "web-extensions": {
          "oneOf": [
            {
              "const": "none"
            },
            {
              "type": "array",
              "items": {
                "$ref": "#/$defs/text"
              }
            }
          ],
          "description": "WKWebViewConfiguration.webExtensionController (iOS 18.4): none (no controller), or the names of the extensions the app may load. Absent: the app's code decides."
        },
        "permissions": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "camera": {
              "$ref": "#/$defs/permissionRule",
              "description": "Camera (getUserMedia): deny, ask, or the origins that may ask. WKUIDelegate requestMediaCapturePermissionFor (iOS 15); WebPage's deviceSensorAuthorization (iOS 26)."
            },
            "microphone": {
              "$ref": "#/$defs/permissionRule",
              "description": "Microphone (getUserMedia): deny, ask, or the origins that may ask."
            },
            "device-motion": {
              "$ref": "#/$defs/permissionRule",
              "description": "Motion and orientation sensors (DeviceMotionEvent.requestPermission): deny, ask, or the origins that may ask. requestDeviceOrientationAndMotionPermissionFor (iOS 15)."
            }
          },
          "description": "Who may ask for the camera, the microphone and motion sensors. A capability left out keeps WebKit's answer: the user is asked."
        },
        "lockdown": {
          "enum": [
            true,
            false,
            "device"
          ],
          "description": "WKWebpagePreferences.isLockdownModeEnabled (iOS 16.0; unset: the device's Lockdown Mode setting): true turns Lockdown Mode on for the view's pages (no JIT, fewer web fonts and APIs), false off even where the device has it on."
        },
        "security-restriction-mode": {
          "enum": [
            "none",
            "maximize-compatibility",
            "lockdown"
          ],
          "description": "WKWebpagePreferences.securityRestrictionMode (iOS 26.4; unset: none, or Lockdown where the device is in Lockdown Mode): maximize-compatibility turns JIT off and isolates the page's process; lockdown is Lockdown Mode; a laxer mode than the device's fails silently."
        },
        "https-navigation": {
          "enum": [
            "keep-as-requested",
            "automatic-fallback-to-http",
            "user-mediated-fallback-to-http",
            "error-on-failure"
          ],
          "description": "WKWebpagePreferences.preferredHTTPSNavigationPolicy (iOS 18.2; unset: keep-as-requested): HTTPS-first for the main frame: an http navigation is tried over https first, then falls back to http automatically, after asking the user, or fails."
        }
      }
    },
    "permissionRule": {
      "oneOf": [
        {
          "enum": [
            "deny",
            "ask"
          ]
        },
        {
          "type": "array",
          "items": {
            "$ref": "#/$defs/host"
          },
          "description": "The origins whose https pages may ask (the user decides); every other origin is refused without asking."
        }
      ],
      "description": "deny (refused without asking), ask (the user decides), or the origins whose https pages may ask; every other origin is refused without asking."
    },
    "runtimeHost": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "description": {
          "$ref": "#/$defs/text",
          "description": "Which server the role stands for, for reviewers."
        },
        "schemes": {
          "type": "array",
          "items": {
            "enum": [
              "https",
              "http"
            ]
          },
          "description": "What a binding may use; default [https]."
        },
        "http": {
          "enum": [
            "local-network",
            "anywhere"
          ],
          "description": "Where plain http may go when schemes has it: local-network (default; unqualified names, .local, private and link-local addresses, as ATS's NSAllowsLocalNetworking) or anywhere."
        }
      }
    }
  }
}

"""##
}
