/// The service's contract, served at `GET /openapi.json`: OpenAPI 3.1, whose schemas are JSON
/// Schema 2020-12.
///
/// The only copy in the repository. `ContractTests` holds its paths equal to `APIRoute.all`, and
/// `.ci/run` runs schemathesis against a live server with it (scripts/service/check_contract.py),
/// so a route, a parameter or a body shape that changes without this document fails CI.
///
/// Patterns are what the contract promises: where the service also reads more (upper-case units,
/// the long unit names, years 1900 and 9997), the description says so, and the pattern keeps to
/// values the service accepts for certain, so a client that validates against it is never refused.
enum OpenAPIDocument {
  static let json: String = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "stores-server",
        "version": "0.1.0",
        "summary": "The store locator over HTTP: nearest stores, a circle or a box, a store, its hours, whether it is open, and pickup planning.",
        "description": "Every answer is exactly what the `stores` command line prints with `--format json` for the same question, and every refusal is the same sentence, as an RFC 9457 `application/problem+json` problem that names the parameter.\n\n**Parameters.** Each name once (except `where`), at most 64 values a request, no unknown names: a typo is a 400 that suggests the right name, never a parameter silently ignored. Query strings are form-encoded (`+` is a space).\n\n**Caching.** Answers about stores carry an `ETag` and `Cache-Control: public, max-age=10`; send `If-None-Match` for a 304. Errors, health, metrics, pickup plans and admin answers are `no-store`.\n\n**Headers on every answer.** `X-Request-Id` (yours, or a new one; the log line has it) and `X-Stores-Data-Version` (the data the answer was computed from; it changes when a reload swaps in other data).\n\n**Methods.** HEAD is answered wherever GET is. Another method on a known path is a 405 `method-not-allowed` problem with `Allow`; an unknown path is a 404 `not-found` problem.\n\n**Limits.** `k` and `limit` at most 1000, `days` at most 366, durations at most 366 days, bodies at most 1 MiB, a request at most 10 s (`--request-timeout`, then 503 `timeout`); a query that finds every query thread busy and the queue full is refused at once (503 `overloaded`, `Retry-After`). HTTP/1.1 requests need exactly one `Host`. docs/limits.md lists every bound.\n\n**CORS.** Only for the origins given with `--cors-origin`.",
        "license": {
          "name": "See the repository"
        }
      },
      "servers": [
        {
          "url": "http://127.0.0.1:8080",
          "description": "`stores-server` with its defaults (`--hostname 127.0.0.1 --port 8080`)."
        }
      ],
      "tags": [
        {
          "name": "stores",
          "description": "Questions about stores: the same as `stores nearest`, `within`, `show`, `hours`, `open`."
        },
        {
          "name": "pickup",
          "description": "Pickup planning, as `stores pickup`."
        },
        {
          "name": "data",
          "description": "The data being served."
        },
        {
          "name": "operations",
          "description": "Probes, metrics and this document."
        },
        {
          "name": "admin",
          "description": "Reload, with the admin token."
        },
        {
          "name": "page",
          "description": "The store picker page for people: a map and a list (docs/page.md). Not an API: its files may change with any release."
        }
      ],
      "paths": {
        "/v1/stores/nearest": {
          "get": {
            "operationId": "nearestStores",
            "tags": [
              "stores"
            ],
            "summary": "The stores nearest a point",
            "description": "`stores nearest`: the `k` stores nearest `near`, nearest first, each with its state at the time asked (default now), optionally within a distance, meeting `where` conditions and opening-hours conditions. The body is byte for byte what `stores nearest … --format json` prints.",
            "parameters": [
              {
                "$ref": "#/components/parameters/Near"
              },
              {
                "name": "k",
                "in": "query",
                "required": false,
                "description": "How many stores, 1 to 1000 (default 5); `within` pages through more.",
                "schema": {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 1000,
                  "default": 5
                },
                "example": 3
              },
              {
                "name": "within",
                "in": "query",
                "required": false,
                "description": "Only stores at most this far.",
                "schema": {
                  "$ref": "#/components/schemas/Reach"
                },
                "example": "2km"
              },
              {
                "$ref": "#/components/parameters/Where"
              },
              {
                "$ref": "#/components/parameters/OpenNow"
              },
              {
                "$ref": "#/components/parameters/OpenAt"
              },
              {
                "$ref": "#/components/parameters/OpenFor"
              },
              {
                "$ref": "#/components/parameters/AllowUnknown"
              },
              {
                "$ref": "#/components/parameters/Now"
              },
              {
                "name": "format",
                "in": "query",
                "required": false,
                "description": "`json` (default) or `geojson`: a FeatureCollection with the `query` as a foreign member.",
                "schema": {
                  "$ref": "#/components/schemas/AnswerFormat"
                }
              },
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/IfNoneMatch"
              }
            ],
            "responses": {
              "200": {
                "description": "The nearest stores (`application/geo+json` with `format=geojson`).",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-Public"
                  },
                  "X-Stores-Note": {
                    "$ref": "#/components/headers/X-Stores-Note"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/NearestAnswer"
                    },
                    "example": {
                      "query": {
                        "near": {
                          "latitude": 47.6062,
                          "longitude": -122.3321
                        },
                        "k": 1,
                        "within_m": null,
                        "where": [],
                        "at": "2026-11-25T09:16:11Z",
                        "open": false,
                        "open_for_s": null
                      },
                      "count": 1,
                      "stores": [
                        {
                          "id": "nw-0145",
                          "name": "Northwind Coffee Seattle 2",
                          "brand": "Northwind Coffee",
                          "address": "583 Northgate Lane, Seattle, WA 98197",
                          "latitude": 47.606014,
                          "longitude": -122.334287,
                          "distance_m": 165.259,
                          "timezone": "America/Los_Angeles",
                          "opening_hours": "Mo-Fr 05:30-19:00; Sa,Su 07:30-18:30; PH 08:00-14:00",
                          "state": "closed",
                          "comment": null,
                          "next_change": "2026-11-25T05:30:00-08:00",
                          "status_text": "closed, opens 05:30",
                          "phone": "+1 206 555 0154",
                          "website": "https://www.northwindcoffee.example/stores/nw-0145",
                          "properties": {
                            "ref": "0145",
                            "brand": "Northwind Coffee",
                            "amenity": "cafe",
                            "drive_through": "yes",
                            "opening_hours": "Mo-Fr 05:30-19:00; Sa,Su 07:30-18:30; PH 08:00-14:00"
                          }
                        }
                      ]
                    }
                  },
                  "application/geo+json": {
                    "schema": {
                      "$ref": "#/components/schemas/FeatureCollection"
                    }
                  }
                }
              },
              "304": {
                "$ref": "#/components/responses/NotModified"
              },
              "400": {
                "$ref": "#/components/responses/BadRequest"
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/v1/stores/within": {
          "get": {
            "operationId": "storesWithin",
            "tags": [
              "stores"
            ],
            "summary": "Every store in a circle or a box, a page at a time",
            "description": "`stores within`: the stores within `radius` of `near` (nearest first) or inside `bbox` (in the data's order), meeting the same conditions as `nearest`. Give `near` with `radius`, or `bbox`, not both. Pages of `limit` stores (default 100): pass `next_cursor` back as `cursor`, with the same other parameters, for the next page; a cursor belongs to one data version, and after a reload the service asks you to start again.",
            "parameters": [
              {
                "name": "near",
                "in": "query",
                "required": false,
                "description": "The circle's centre, `LAT,LON` (with `radius`).",
                "schema": {
                  "$ref": "#/components/schemas/LatLon"
                },
                "example": "47.6062,-122.3321"
              },
              {
                "name": "radius",
                "in": "query",
                "required": false,
                "description": "The circle's radius, at most 20015 km (half the Earth's circumference).",
                "schema": {
                  "$ref": "#/components/schemas/Distance"
                },
                "example": "2km"
              },
              {
                "name": "bbox",
                "in": "query",
                "required": false,
                "description": "A box `W,S,E,N` in degrees (instead of `near` and `radius`); south at most north; west greater than east crosses the antimeridian: `-122.4,47.5,-122.2,47.7`.",
                "schema": {
                  "$ref": "#/components/schemas/Box"
                }
              },
              {
                "$ref": "#/components/parameters/Where"
              },
              {
                "$ref": "#/components/parameters/OpenNow"
              },
              {
                "$ref": "#/components/parameters/OpenAt"
              },
              {
                "$ref": "#/components/parameters/OpenFor"
              },
              {
                "$ref": "#/components/parameters/AllowUnknown"
              },
              {
                "name": "limit",
                "in": "query",
                "required": false,
                "description": "Stores a page, 1 to 1000 (default 100).",
                "schema": {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 1000,
                  "default": 100
                },
                "example": 50
              },
              {
                "name": "cursor",
                "in": "query",
                "required": false,
                "description": "Where the page starts: the `next_cursor` of the page before, as it came (opaque).",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9a-f]{16}\\.[0-9]+$"
                }
              },
              {
                "$ref": "#/components/parameters/Now"
              },
              {
                "name": "format",
                "in": "query",
                "required": false,
                "description": "`json` (default) or `geojson`.",
                "schema": {
                  "$ref": "#/components/schemas/AnswerFormat"
                }
              },
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/IfNoneMatch"
              }
            ],
            "responses": {
              "200": {
                "description": "One page of stores (`application/geo+json` with `format=geojson`, which carries no cursor).",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-Public"
                  },
                  "X-Stores-Note": {
                    "$ref": "#/components/headers/X-Stores-Note"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/WithinAnswer"
                    }
                  },
                  "application/geo+json": {
                    "schema": {
                      "$ref": "#/components/schemas/FeatureCollection"
                    }
                  }
                }
              },
              "304": {
                "$ref": "#/components/responses/NotModified"
              },
              "400": {
                "$ref": "#/components/responses/BadRequest"
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/v1/stores/clusters": {
          "get": {
            "operationId": "storeClusters",
            "tags": [
              "stores"
            ],
            "summary": "Stores in a box, counted per cell of a grid",
            "description": "`stores clusters`: the box is cut into `columns` × `rows` equal cells in degrees, and each cell holding stores that meet the conditions (the same `where` and opening conditions as `within`) is one cluster: how many, their mean position, the smallest box holding them (what a map zooms to), and the store's `id` when it is one. For a map zoomed out over thousands of stores (the page at `/` draws these). The body is byte for byte what `stores clusters … --format json` prints.",
            "parameters": [
              {
                "name": "bbox",
                "in": "query",
                "required": true,
                "description": "The box to count stores in, `W,S,E,N` in degrees; south at most north; west greater than east crosses the antimeridian: `-180,-85,180,85` for the world.",
                "schema": {
                  "$ref": "#/components/schemas/Box"
                },
                "example": "-180,-85,180,85"
              },
              {
                "name": "columns",
                "in": "query",
                "required": false,
                "description": "Cells across the box, west to east, 1 to 256 (default 16).",
                "schema": {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 256,
                  "default": 16
                },
                "example": 8
              },
              {
                "name": "rows",
                "in": "query",
                "required": false,
                "description": "Cells down the box, south to north, 1 to 256 (default 16).",
                "schema": {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 256,
                  "default": 16
                },
                "example": 8
              },
              {
                "$ref": "#/components/parameters/Where"
              },
              {
                "$ref": "#/components/parameters/OpenNow"
              },
              {
                "$ref": "#/components/parameters/OpenAt"
              },
              {
                "$ref": "#/components/parameters/OpenFor"
              },
              {
                "$ref": "#/components/parameters/AllowUnknown"
              },
              {
                "$ref": "#/components/parameters/Now"
              },
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/IfNoneMatch"
              }
            ],
            "responses": {
              "200": {
                "description": "Every cell holding stores, row by row from the south.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-Public"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/ClustersAnswer"
                    },
                    "example": {
                      "query": {
                        "bbox": [
                          170,
                          -20,
                          -170,
                          -10
                        ],
                        "columns": 4,
                        "rows": 2,
                        "where": [],
                        "at": "2026-11-25T18:00:00Z",
                        "open": false,
                        "open_for_s": null
                      },
                      "count": 51,
                      "clusters": [
                        {
                          "column": 1,
                          "row": 0,
                          "count": 42,
                          "latitude": -17.5486,
                          "longitude": 178.887,
                          "bbox": [
                            178.401528,
                            -18.142709,
                            179.997191,
                            -16.43158
                          ]
                        },
                        {
                          "column": 2,
                          "row": 0,
                          "count": 9,
                          "latitude": -16.7698,
                          "longitude": -179.965,
                          "bbox": [
                            -179.997175,
                            -16.797916,
                            -179.879771,
                            -16.692222
                          ]
                        }
                      ]
                    }
                  }
                }
              },
              "304": {
                "$ref": "#/components/responses/NotModified"
              },
              "400": {
                "$ref": "#/components/responses/BadRequest"
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/v1/stores/{id}": {
          "parameters": [
            {
              "$ref": "#/components/parameters/Id"
            }
          ],
          "get": {
            "operationId": "getStore",
            "tags": [
              "stores"
            ],
            "summary": "One store and its state",
            "description": "`stores show ID --format json`: the store with its state at `at` (default now).",
            "parameters": [
              {
                "name": "at",
                "in": "query",
                "required": false,
                "description": "The time the state describes (default now).",
                "schema": {
                  "$ref": "#/components/schemas/Time"
                },
                "example": "2026-12-24T09:00"
              },
              {
                "$ref": "#/components/parameters/Now"
              },
              {
                "$ref": "#/components/parameters/StoreFormat"
              },
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/IfNoneMatch"
              }
            ],
            "responses": {
              "200": {
                "description": "The store (`application/geo+json` with `format=geojson`: a one-feature collection).",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-Public"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Store"
                    },
                    "example": {
                      "id": "nw-0145",
                      "name": "Northwind Coffee Seattle 2",
                      "brand": "Northwind Coffee",
                      "address": "583 Northgate Lane, Seattle, WA 98197",
                      "latitude": 47.606014,
                      "longitude": -122.334287,
                      "distance_m": null,
                      "timezone": "America/Los_Angeles",
                      "opening_hours": "Mo-Fr 05:30-19:00; Sa,Su 07:30-18:30; PH 08:00-14:00",
                      "state": "closed",
                      "comment": null,
                      "next_change": "2026-11-25T05:30:00-08:00",
                      "status_text": "closed, opens 05:30",
                      "phone": "+1 206 555 0154",
                      "website": "https://www.northwindcoffee.example/stores/nw-0145",
                      "properties": {
                        "ref": "0145",
                        "brand": "Northwind Coffee",
                        "amenity": "cafe",
                        "drive_through": "yes",
                        "opening_hours": "Mo-Fr 05:30-19:00; Sa,Su 07:30-18:30; PH 08:00-14:00"
                      }
                    }
                  },
                  "application/geo+json": {
                    "schema": {
                      "$ref": "#/components/schemas/FeatureCollection"
                    }
                  }
                }
              },
              "304": {
                "$ref": "#/components/responses/NotModified"
              },
              "400": {
                "$ref": "#/components/responses/BadRequest"
              },
              "404": {
                "$ref": "#/components/responses/UnknownStore"
              },
              "409": {
                "$ref": "#/components/responses/AmbiguousStore"
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/v1/stores/{id}/hours": {
          "parameters": [
            {
              "$ref": "#/components/parameters/Id"
            }
          ],
          "get": {
            "operationId": "getStoreHours",
            "tags": [
              "stores"
            ],
            "summary": "A store's hours, day by day",
            "description": "`stores hours ID --format json`: the state at the time asked and the open spans of each local day, from that day on.",
            "parameters": [
              {
                "name": "from",
                "in": "query",
                "required": false,
                "description": "The time to start from (default now); the days listed start on its local date. `at` means the same; give one.",
                "schema": {
                  "$ref": "#/components/schemas/Time"
                },
                "example": "2026-12-21T00:00"
              },
              {
                "name": "at",
                "in": "query",
                "required": false,
                "description": "A synonym of `from`; give one of them.",
                "schema": {
                  "$ref": "#/components/schemas/Time"
                }
              },
              {
                "name": "days",
                "in": "query",
                "required": false,
                "description": "How many days, 1 to 366 (default 7).",
                "schema": {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 366,
                  "default": 7
                },
                "example": 7
              },
              {
                "$ref": "#/components/parameters/Now"
              },
              {
                "$ref": "#/components/parameters/JsonOnlyFormat"
              },
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/IfNoneMatch"
              }
            ],
            "responses": {
              "200": {
                "description": "The hours.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-Public"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/HoursAnswer"
                    },
                    "example": {
                      "opening_hours": "Mo-Fr 05:30-19:00; Sa,Su 07:30-18:30; PH 08:00-14:00",
                      "timezone": "America/Los_Angeles",
                      "at": "2026-11-25T01:16:14-08:00",
                      "state": "closed",
                      "comment": null,
                      "next_change": "2026-11-25T05:30:00-08:00",
                      "status_text": "closed, opens 05:30",
                      "warnings": [],
                      "days": [
                        {
                          "date": "2026-11-25",
                          "spans": [
                            {
                              "start": "2026-11-25T05:30:00",
                              "end": "2026-11-25T19:00:00",
                              "state": "open",
                              "comment": null
                            }
                          ]
                        }
                      ]
                    }
                  }
                }
              },
              "304": {
                "$ref": "#/components/responses/NotModified"
              },
              "400": {
                "$ref": "#/components/responses/BadRequest"
              },
              "404": {
                "$ref": "#/components/responses/UnknownStore"
              },
              "409": {
                "$ref": "#/components/responses/AmbiguousStore"
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/v1/stores/{id}/open": {
          "parameters": [
            {
              "$ref": "#/components/parameters/Id"
            }
          ],
          "get": {
            "operationId": "getStoreOpen",
            "tags": [
              "stores"
            ],
            "summary": "Whether a store is open, and stays open",
            "description": "`stores open ID --format json`: the store with its state at `at` (default now) and, with `for`, whether it stays open that long. The answer is a 200 whether the store is open or not; read `state` and `open_for.met`.",
            "parameters": [
              {
                "name": "at",
                "in": "query",
                "required": false,
                "description": "The time asked about (default now).",
                "schema": {
                  "$ref": "#/components/schemas/Time"
                },
                "example": "2026-12-24T09:00"
              },
              {
                "name": "for",
                "in": "query",
                "required": false,
                "description": "How long the store must stay open from `at`.",
                "schema": {
                  "$ref": "#/components/schemas/Duration"
                },
                "example": "30m"
              },
              {
                "$ref": "#/components/parameters/Now"
              },
              {
                "$ref": "#/components/parameters/JsonOnlyFormat"
              },
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/IfNoneMatch"
              }
            ],
            "responses": {
              "200": {
                "description": "The store and the answer.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-Public"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/OpenStore"
                    },
                    "example": {
                      "id": "nw-0145",
                      "name": "Northwind Coffee Seattle 2",
                      "brand": "Northwind Coffee",
                      "address": "583 Northgate Lane, Seattle, WA 98197",
                      "latitude": 47.606014,
                      "longitude": -122.334287,
                      "distance_m": null,
                      "timezone": "America/Los_Angeles",
                      "opening_hours": "Mo-Fr 05:30-19:00; Sa,Su 07:30-18:30; PH 08:00-14:00",
                      "state": "closed",
                      "comment": null,
                      "next_change": "2026-11-25T05:30:00-08:00",
                      "status_text": "closed, opens 05:30",
                      "phone": "+1 206 555 0154",
                      "website": "https://www.northwindcoffee.example/stores/nw-0145",
                      "properties": {
                        "ref": "0145",
                        "brand": "Northwind Coffee",
                        "amenity": "cafe",
                        "drive_through": "yes",
                        "opening_hours": "Mo-Fr 05:30-19:00; Sa,Su 07:30-18:30; PH 08:00-14:00"
                      },
                      "open_for": {
                        "seconds": 1800,
                        "met": false,
                        "text": "so not open for 30 min"
                      }
                    }
                  }
                }
              },
              "304": {
                "$ref": "#/components/responses/NotModified"
              },
              "400": {
                "$ref": "#/components/responses/BadRequest"
              },
              "404": {
                "$ref": "#/components/responses/UnknownStore"
              },
              "409": {
                "$ref": "#/components/responses/AmbiguousStore"
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/v1/pickup": {
          "post": {
            "operationId": "planPickup",
            "tags": [
              "pickup"
            ],
            "summary": "Which store can take this order, and when",
            "description": "`stores pickup`: the body is an order document (an object with `items`; the answer is the order with its plan added as `pickup`) or a plain pickup request (the answer is the plan). The query string may add pickup parameters to an order document, overriding its own; a plain request gives them in the body only. A plan with no eligible store is a 200 with `status` `none`, `passed_over` and `earliest`, not an error. Never cached.",
            "parameters": [
              {
                "name": "near",
                "in": "query",
                "required": false,
                "description": "Overrides the order's customer location.",
                "schema": {
                  "$ref": "#/components/schemas/LatLon"
                }
              },
              {
                "name": "store",
                "in": "query",
                "required": false,
                "description": "The store the customer chose (overrides the order's `store`).",
                "schema": {
                  "type": "string",
                  "minLength": 1
                }
              },
              {
                "name": "within",
                "in": "query",
                "required": false,
                "description": "How far to look, default 10 km, at most 1000 km.",
                "schema": {
                  "$ref": "#/components/schemas/PickupDistance"
                }
              },
              {
                "name": "close_buffer",
                "in": "query",
                "required": false,
                "description": "How long before closing a store stops taking pickups (default 10m, at most a day).",
                "schema": {
                  "$ref": "#/components/schemas/ShortDuration"
                }
              },
              {
                "name": "travel",
                "in": "query",
                "required": false,
                "description": "`walk` (default), `bike`, `drive`, or a speed such as `12km/h`.",
                "schema": {
                  "$ref": "#/components/schemas/TravelMode"
                }
              },
              {
                "name": "max_travel",
                "in": "query",
                "required": false,
                "description": "The longest travel time to a store (default 2h).",
                "schema": {
                  "$ref": "#/components/schemas/PositiveDuration"
                }
              },
              {
                "$ref": "#/components/parameters/AllowUnknown"
              },
              {
                "name": "alternatives",
                "in": "query",
                "required": false,
                "description": "How many other eligible stores to list, 0 to 100 (default 3).",
                "schema": {
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 100,
                  "default": 3
                }
              },
              {
                "$ref": "#/components/parameters/Where"
              },
              {
                "name": "now",
                "in": "query",
                "required": false,
                "description": "The order time, for a reproducible answer (default: the service's clock).",
                "schema": {
                  "$ref": "#/components/schemas/Instant"
                },
                "example": "2026-12-24T15:50:00Z"
              },
              {
                "$ref": "#/components/parameters/RequestId"
              }
            ],
            "requestBody": {
              "required": true,
              "description": "JSON, at most 1 MiB (`--max-body-bytes`); `Content-Type: application/json` or any `+json` type.",
              "content": {
                "application/json": {
                  "schema": {
                    "oneOf": [
                      {
                        "$ref": "#/components/schemas/Order"
                      },
                      {
                        "$ref": "#/components/schemas/PickupRequest"
                      }
                    ]
                  },
                  "examples": {
                    "order": {
                      "summary": "An order document (docs/examples/order.json)",
                      "value": {
                        "id": "order-1042",
                        "customer": {
                          "latitude": 51.5074,
                          "longitude": -0.1278
                        },
                        "items": [
                          {
                            "name": "Flat white",
                            "quantity": 2,
                            "prep_minutes": 4
                          },
                          {
                            "name": "Croissant",
                            "quantity": 1,
                            "prep_minutes": 1
                          }
                        ],
                        "pickup_time": "asap",
                        "note": "no sugar"
                      }
                    },
                    "request": {
                      "summary": "A plain request",
                      "value": {
                        "near": "51.5074,-0.1278",
                        "ready_in": "12m",
                        "travel": "walk"
                      }
                    }
                  }
                }
              }
            },
            "responses": {
              "200": {
                "description": "The plan: the order written back with `pickup` for an order document, the plan alone for a plain request.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-No-Store"
                  },
                  "X-Stores-Note": {
                    "$ref": "#/components/headers/X-Stores-Note"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "oneOf": [
                        {
                          "$ref": "#/components/schemas/OrderWithPickup"
                        },
                        {
                          "$ref": "#/components/schemas/PickupResult"
                        }
                      ]
                    }
                  }
                }
              },
              "400": {
                "$ref": "#/components/responses/BadRequest"
              },
              "404": {
                "$ref": "#/components/responses/UnknownStore"
              },
              "409": {
                "$ref": "#/components/responses/AmbiguousStore"
              },
              "413": {
                "description": "The body is over the limit (1 MiB by default, `--max-body-bytes`).",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-No-Store"
                  }
                },
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "allOf": [
                        {
                          "$ref": "#/components/schemas/Problem"
                        },
                        {
                          "properties": {
                            "type": {
                              "enum": [
                                "urn:stores:problem:body-too-large"
                              ]
                            },
                            "status": {
                              "const": 413
                            }
                          }
                        }
                      ]
                    },
                    "example": {
                      "type": "urn:stores:problem:body-too-large",
                      "title": "The body is too large",
                      "status": 413,
                      "detail": "the body is over 1048576 bytes, the service's limit"
                    }
                  }
                }
              },
              "415": {
                "description": "The body is not declared JSON.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-No-Store"
                  }
                },
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "allOf": [
                        {
                          "$ref": "#/components/schemas/Problem"
                        },
                        {
                          "properties": {
                            "type": {
                              "enum": [
                                "urn:stores:problem:unsupported-media-type"
                              ]
                            },
                            "status": {
                              "const": 415
                            }
                          }
                        }
                      ]
                    },
                    "example": {
                      "type": "urn:stores:problem:unsupported-media-type",
                      "title": "The body is not JSON",
                      "status": 415,
                      "detail": "the body is 'text/plain'; send application/json (an order document or a pickup request)"
                    }
                  }
                }
              },
              "422": {
                "description": "The planner refuses the request as a whole: the order would be ready more than 30 days after the order time.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-No-Store"
                  }
                },
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "allOf": [
                        {
                          "$ref": "#/components/schemas/Problem"
                        },
                        {
                          "properties": {
                            "type": {
                              "enum": [
                                "urn:stores:problem:pickup-refused"
                              ]
                            },
                            "status": {
                              "const": 422
                            }
                          }
                        }
                      ]
                    },
                    "example": {
                      "type": "urn:stores:problem:pickup-refused",
                      "title": "The pickup planner refuses this request",
                      "status": 422,
                      "detail": "the order must be ready within 30 days of the order time; it would be ready in 50 days"
                    }
                  }
                }
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/v1/info": {
          "get": {
            "operationId": "getInfo",
            "tags": [
              "data"
            ],
            "summary": "A summary of the data being served",
            "description": "`stores info --format json`: counts by time zone and brand, the data's problems by code. Takes no parameters.",
            "parameters": [
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/IfNoneMatch"
              }
            ],
            "responses": {
              "200": {
                "description": "The summary.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-Public"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Info"
                    }
                  }
                }
              },
              "304": {
                "$ref": "#/components/responses/NotModified"
              },
              "400": {
                "$ref": "#/components/responses/BadRequest"
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/healthz": {
          "get": {
            "operationId": "health",
            "tags": [
              "operations"
            ],
            "summary": "Liveness: the process answers",
            "description": "200 as long as the process serves requests; says nothing about the data (that is `/readyz`). For a liveness probe.",
            "parameters": [
              {
                "$ref": "#/components/parameters/RequestId"
              }
            ],
            "responses": {
              "200": {
                "description": "Alive.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-No-Store"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Health"
                    },
                    "example": {
                      "status": "ok"
                    }
                  }
                }
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/readyz": {
          "get": {
            "operationId": "readiness",
            "tags": [
              "operations"
            ],
            "summary": "Readiness: data is loaded and requests are taken",
            "description": "200 with the data version once data is loaded and verified; 503 before, and from the moment a shutdown begins (so a load balancer stops sending requests while the last ones finish). For a readiness probe.",
            "parameters": [
              {
                "$ref": "#/components/parameters/RequestId"
              }
            ],
            "responses": {
              "200": {
                "description": "Ready.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-No-Store"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Ready"
                    },
                    "example": {
                      "status": "ready",
                      "version": "721c9fbf867edb1b",
                      "stores": 2000,
                      "source": "Data/stores.geojson"
                    }
                  }
                }
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/metrics": {
          "get": {
            "operationId": "metrics",
            "tags": [
              "operations"
            ],
            "summary": "Prometheus metrics",
            "description": "The Prometheus text format: requests and latency per route and status (`http_server_requests_total`, `http_server_request_duration`), requests in flight, reloads by result (`stores_reloads_total`: success, failure, refused) and those that shared another's load (`stores_reloads_coalesced_total`), the stores loaded, the data version, when and how fast it was loaded.",
            "parameters": [
              {
                "$ref": "#/components/parameters/RequestId"
              }
            ],
            "responses": {
              "200": {
                "description": "The metrics.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-No-Store"
                  }
                },
                "content": {
                  "text/plain": {
                    "schema": {
                      "type": "string"
                    },
                    "example": "# HELP stores_loaded_stores Stores in the data being served\n# TYPE stores_loaded_stores gauge\nstores_loaded_stores 2000.0\n"
                  }
                }
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/openapi.json": {
          "get": {
            "operationId": "openAPI",
            "tags": [
              "operations"
            ],
            "summary": "This document",
            "description": "The contract, OpenAPI 3.1. Cached for 5 minutes.",
            "parameters": [
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/IfNoneMatch"
              }
            ],
            "responses": {
              "200": {
                "description": "The document.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-Public"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "type": "object",
                      "required": [
                        "openapi",
                        "info",
                        "paths"
                      ]
                    }
                  }
                }
              },
              "304": {
                "$ref": "#/components/responses/NotModified"
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/admin/reload": {
          "post": {
            "operationId": "reload",
            "tags": [
              "admin"
            ],
            "summary": "Load the data again and swap it in",
            "description": "As `SIGHUP` does: reads `--data` again beside the data being served and swaps it in atomically; requests in flight finish on the data they started with, and the data replaced is released when the last of them ends. Reloads coalesce: one asked for while another loads waits for it and shares the next load with every other one asked meanwhile, so the answer always reflects the file as it was after the request arrived. A load that fails (a missing file, bad data under `--strict`, a corrupted snapshot) keeps the old data and answers 422 `reload-failed` with the reason. New data that lacks more of the served stores than `--max-store-loss` allows (10% by default: an empty or truncated upstream file) keeps the old data too and answers 422 `reload-refused` with both counts, unless `force=true`. The route exists only when `STORES_ADMIN_TOKEN` is set (else 404, as for an unknown path); the token is compared in constant time, before the parameters are read. No body.",
            "security": [
              {
                "adminToken": []
              }
            ],
            "parameters": [
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/Force"
              }
            ],
            "responses": {
              "200": {
                "description": "The new data is served. `X-Stores-Data-Version` names it.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-No-Store"
                  }
                },
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Reloaded"
                    },
                    "example": {
                      "reloaded": true,
                      "version": "721c9fbf867edb1b",
                      "previous_version": "721c9fbf867edb1b",
                      "stores": 2000,
                      "source": "Data/stores.geojson",
                      "load_seconds": 1.24
                    }
                  }
                }
              },
              "400": {
                "$ref": "#/components/responses/BadRequest"
              },
              "401": {
                "description": "The `Authorization: Bearer` token is missing or wrong.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-No-Store"
                  },
                  "WWW-Authenticate": {
                    "$ref": "#/components/headers/WWW-Authenticate"
                  }
                },
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "allOf": [
                        {
                          "$ref": "#/components/schemas/Problem"
                        },
                        {
                          "properties": {
                            "type": {
                              "enum": [
                                "urn:stores:problem:unauthorized"
                              ]
                            },
                            "status": {
                              "const": 401
                            }
                          }
                        }
                      ]
                    },
                    "example": {
                      "type": "urn:stores:problem:unauthorized",
                      "title": "The admin token is missing or wrong",
                      "status": 401,
                      "detail": "send Authorization: Bearer with the service's STORES_ADMIN_TOKEN"
                    }
                  }
                }
              },
              "404": {
                "description": "`STORES_ADMIN_TOKEN` is not set: the route does not exist.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-No-Store"
                  }
                },
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "allOf": [
                        {
                          "$ref": "#/components/schemas/Problem"
                        },
                        {
                          "properties": {
                            "type": {
                              "enum": [
                                "urn:stores:problem:not-found"
                              ]
                            },
                            "status": {
                              "const": 404
                            }
                          }
                        }
                      ]
                    },
                    "example": {
                      "type": "urn:stores:problem:not-found",
                      "title": "No such route",
                      "status": 404,
                      "detail": "no route '/admin/reload'; GET /openapi.json lists them"
                    }
                  }
                }
              },
              "422": {
                "description": "The data was not swapped in; the data loaded before is still served (`version`): `reload-failed`, it could not be loaded; `reload-refused`, it lacks more of the stores than `--max-store-loss` allows (`stores`, `new_stores`, `store_loss_percent`), and `force=true` would take it.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-No-Store"
                  }
                },
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "allOf": [
                        {
                          "$ref": "#/components/schemas/Problem"
                        },
                        {
                          "properties": {
                            "type": {
                              "enum": [
                                "urn:stores:problem:reload-failed",
                                "urn:stores:problem:reload-refused"
                              ]
                            },
                            "status": {
                              "const": 422
                            }
                          }
                        }
                      ]
                    },
                    "examples": {
                      "failed": {
                        "summary": "The file could not be loaded",
                        "value": {
                          "type": "urn:stores:problem:reload-failed",
                          "title": "The data could not be reloaded",
                          "status": 422,
                          "detail": "cannot read /srv/stores.snapshot: No such file or directory; the data loaded before is still served",
                          "reloaded": false,
                          "version": "721c9fbf867edb1b"
                        }
                      },
                      "refused": {
                        "summary": "The file lacks too many stores",
                        "value": {
                          "type": "urn:stores:problem:reload-refused",
                          "title": "The reload would lose too many stores",
                          "status": 422,
                          "detail": "/srv/stores.geojson: the new data has 0 stores, 100% fewer than the 2000 served (the limit is 10%, --max-store-loss); to accept it, POST /admin/reload?force=true; the data loaded before is still served",
                          "reloaded": false,
                          "version": "721c9fbf867edb1b",
                          "stores": 2000,
                          "new_version": "3b5e0c4f1a2d6e7f",
                          "new_stores": 0,
                          "store_loss_percent": 100,
                          "max_store_loss_percent": 10
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        },
        "/": {
          "get": {
            "operationId": "page",
            "tags": [
              "page"
            ],
            "summary": "The store picker page",
            "description": "One HTML page with a map and a list: choose where the customer is, see the nearest stores, filter them, open a store's hours and a pickup estimate. It calls the `/v1` routes like any client. Served with a `Content-Security-Policy` that allows only its own scripts, the API and images from the tile server of `--tiles`.",
            "parameters": [
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/IfNoneMatch"
              }
            ],
            "responses": {
              "200": {
                "description": "The page, with its configuration (map library, tiles, basemap) written into it.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-Page"
                  },
                  "Content-Security-Policy": {
                    "description": "What the page may load.",
                    "required": true,
                    "schema": {
                      "type": "string"
                    }
                  }
                },
                "content": {
                  "text/html": {
                    "schema": {
                      "type": "string"
                    }
                  }
                }
              },
              "304": {
                "$ref": "#/components/responses/PageNotModified"
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/page/{name}": {
          "get": {
            "operationId": "pageFile",
            "tags": [
              "page"
            ],
            "summary": "A file of the page",
            "description": "`picker.js` and `picker.css` (built into the service) and `basemap.json` (Natural Earth 1:110m land, from Data/basemap/, when found): the world map drawn when no tiles are configured or they do not load. The basemap is sent gzip-encoded (`Content-Encoding: gzip`, `Vary: Accept-Encoding`) when the request accepts gzip. Any other name is a 404 `not-found` problem that lists the files served.",
            "parameters": [
              {
                "name": "name",
                "in": "path",
                "required": true,
                "description": "The file's name, as the page refers to it.",
                "schema": {
                  "type": "string",
                  "minLength": 1
                }
              },
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/IfNoneMatch"
              },
              {
                "name": "Accept-Encoding",
                "in": "header",
                "required": false,
                "description": "`gzip` for the compressed copy when there is one.",
                "schema": {
                  "type": "string"
                }
              }
            ],
            "responses": {
              "200": {
                "description": "The file.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-Page"
                  }
                },
                "content": {
                  "text/javascript": {
                    "schema": {
                      "type": "string"
                    }
                  },
                  "text/css": {
                    "schema": {
                      "type": "string"
                    }
                  },
                  "application/geo+json": {
                    "schema": {
                      "type": "object",
                      "required": [
                        "type",
                        "features"
                      ]
                    }
                  }
                }
              },
              "304": {
                "$ref": "#/components/responses/PageNotModified"
              },
              "404": {
                "$ref": "#/components/responses/NoSuchFile"
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        },
        "/assets/{name}": {
          "get": {
            "operationId": "asset",
            "tags": [
              "page"
            ],
            "summary": "Leaflet, for the page's map",
            "description": "Leaflet's script (`leaflet.min.js`, else `leaflet.js`) and `leaflet.css`, read at startup from `--assets` (default `/usr/share/javascript/leaflet`, Debian's `libjs-leaflet`). Sent gzip-encoded (`Content-Encoding: gzip`, `Vary: Accept-Encoding`) when a `.gz` copy lies beside the file and the request accepts gzip. Any other name is a 404 `not-found` problem.",
            "parameters": [
              {
                "name": "name",
                "in": "path",
                "required": true,
                "description": "The file's name, as the page refers to it.",
                "schema": {
                  "type": "string",
                  "minLength": 1
                }
              },
              {
                "$ref": "#/components/parameters/RequestId"
              },
              {
                "$ref": "#/components/parameters/IfNoneMatch"
              },
              {
                "name": "Accept-Encoding",
                "in": "header",
                "required": false,
                "description": "`gzip` for the compressed copy when there is one.",
                "schema": {
                  "type": "string"
                }
              }
            ],
            "responses": {
              "200": {
                "description": "The file.",
                "headers": {
                  "X-Request-Id": {
                    "$ref": "#/components/headers/X-Request-Id"
                  },
                  "X-Stores-Data-Version": {
                    "$ref": "#/components/headers/X-Stores-Data-Version"
                  },
                  "ETag": {
                    "$ref": "#/components/headers/ETag"
                  },
                  "Cache-Control": {
                    "$ref": "#/components/headers/Cache-Control-Page"
                  }
                },
                "content": {
                  "text/javascript": {
                    "schema": {
                      "type": "string"
                    }
                  },
                  "text/css": {
                    "schema": {
                      "type": "string"
                    }
                  }
                }
              },
              "304": {
                "$ref": "#/components/responses/PageNotModified"
              },
              "404": {
                "$ref": "#/components/responses/NoSuchFile"
              },
              "503": {
                "$ref": "#/components/responses/Unavailable"
              }
            }
          }
        }
      },
      "components": {
        "schemas": {
          "Problem": {
            "type": "object",
            "description": "An RFC 9457 problem: every error the service answers. `detail` is the same sentence the CLI prints for the same input.\n\n- `urn:stores:problem:invalid-request` (400): A parameter or the body is malformed, out of range, unknown, repeated, or contradicts another; `parameter` names it.\n- `urn:stores:problem:unknown-store` (404): No store has the id; `suggestions` lists up to three similar ids.\n- `urn:stores:problem:not-found` (404): No route has the path (or /admin/reload without STORES_ADMIN_TOKEN).\n- `urn:stores:problem:method-not-allowed` (405): The path exists, the method does not; `Allow` lists the methods that do.\n- `urn:stores:problem:ambiguous-store` (409): Several stores in the data share the id; `candidates` says where each is in the file.\n- `urn:stores:problem:body-too-large` (413): The body is over the limit (`--max-body-bytes`, 1 MiB by default).\n- `urn:stores:problem:unsupported-media-type` (415): The body is not declared JSON.\n- `urn:stores:problem:unauthorized` (401): The admin token is missing or wrong.\n- `urn:stores:problem:pickup-refused` (422): The planner refuses the request as a whole (an order ready beyond 30 days).\n- `urn:stores:problem:reload-failed` (422): The data could not be loaded again; the old data is still served.\n- `urn:stores:problem:reload-refused` (422): The new data lacks more of the served stores than `--max-store-loss` allows; the old data is still served, and `force=true` accepts it.\n- `urn:stores:problem:not-ready` (503): No data is loaded yet, or the service is shutting down.\n- `urn:stores:problem:timeout` (503): The request ran past the deadline (`--request-timeout`, 10 s by default).\n- `urn:stores:problem:overloaded` (503): Every query thread is busy and `--max-queued-queries` wait; refused at once, with `Retry-After`.\n- `urn:stores:problem:expectation-failed` (417): An `Expect` other than `100-continue`.\n- `urn:stores:problem:internal` (500): A fault of the service, never of the request; the log says why under the request id.",
            "required": [
              "type",
              "title",
              "status",
              "detail"
            ],
            "properties": {
              "type": {
                "type": "string",
                "pattern": "^urn:stores:problem:[a-z0-9-]+$",
                "description": "What kind of problem; fixed per kind, so clients branch on it."
              },
              "title": {
                "type": "string",
                "minLength": 1,
                "description": "A summary that is the same for every problem of the kind."
              },
              "status": {
                "type": "integer",
                "minimum": 400,
                "maximum": 599,
                "description": "The HTTP status, repeated."
              },
              "detail": {
                "type": "string",
                "minLength": 1,
                "description": "This occurrence in a sentence a person can act on."
              },
              "parameter": {
                "type": "string",
                "description": "The query parameter, path parameter (`id`) or body member the problem is about, spelled as the request spelled it."
              },
              "suggestions": {
                "type": "array",
                "items": {
                  "type": "string"
                },
                "maxItems": 3,
                "description": "`unknown-store`: the most similar ids, best first."
              },
              "candidates": {
                "type": "array",
                "description": "`ambiguous-store`: the stores that share the id, where each is in the data.",
                "items": {
                  "type": "object",
                  "required": [
                    "feature",
                    "line",
                    "column",
                    "name",
                    "location"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "feature": {
                      "type": "integer",
                      "minimum": 0,
                      "description": "Index of the feature in the file."
                    },
                    "line": {
                      "type": "integer",
                      "minimum": 1
                    },
                    "column": {
                      "type": "integer",
                      "minimum": 1
                    },
                    "name": {
                      "type": [
                        "string",
                        "null"
                      ]
                    },
                    "location": {
                      "oneOf": [
                        {
                          "$ref": "#/components/schemas/Coordinate"
                        },
                        {
                          "type": "null"
                        }
                      ]
                    }
                  }
                }
              },
              "reloaded": {
                "type": "boolean",
                "const": false,
                "description": "`reload-failed`, `reload-refused`: nothing was swapped in."
              },
              "version": {
                "type": [
                  "string",
                  "null"
                ],
                "description": "`reload-failed`, `reload-refused`: the version still served."
              },
              "stores": {
                "type": "integer",
                "minimum": 0,
                "description": "`reload-refused`: the stores of the data still served."
              },
              "new_version": {
                "type": "string",
                "pattern": "^[0-9a-f]{16}$",
                "description": "`reload-refused`: the version of the data refused."
              },
              "new_stores": {
                "type": "integer",
                "minimum": 0,
                "description": "`reload-refused`: the stores of the data refused."
              },
              "store_loss_percent": {
                "type": "number",
                "exclusiveMinimum": 0,
                "maximum": 100,
                "description": "`reload-refused`: the share of the served stores the new data lacks, in percent (rounded to 0.01)."
              },
              "max_store_loss_percent": {
                "type": "number",
                "minimum": 0,
                "maximum": 100,
                "description": "`reload-refused`: `--max-store-loss`, the largest share a reload may lose."
              }
            }
          },
          "Coordinate": {
            "type": "object",
            "required": [
              "latitude",
              "longitude"
            ],
            "additionalProperties": false,
            "properties": {
              "latitude": {
                "$ref": "#/components/schemas/Latitude"
              },
              "longitude": {
                "$ref": "#/components/schemas/Longitude"
              }
            }
          },
          "UtcTime": {
            "type": "string",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$",
            "description": "An instant in UTC.",
            "example": "2026-12-24T15:58:00Z"
          },
          "LocalTime": {
            "type": "string",
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}(:[0-9]{2})?$",
            "description": "An instant with the offset in force in the store's time zone (seconds when the offset has them).",
            "example": "2026-12-24T15:58:00+00:00"
          },
          "Store": {
            "type": "object",
            "description": "A store as every JSON answer writes it (`stores nearest --format json`, README): always these members, in this order; those a store lacks are null.",
            "required": [
              "id",
              "name",
              "brand",
              "address",
              "latitude",
              "longitude",
              "distance_m",
              "timezone",
              "opening_hours",
              "state",
              "comment",
              "next_change",
              "status_text",
              "phone",
              "website",
              "properties"
            ],
            "additionalProperties": false,
            "properties": {
              "id": {
                "$ref": "#/components/schemas/StoreId"
              },
              "name": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "brand": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "address": {
                "$ref": "#/components/schemas/Address"
              },
              "latitude": {
                "$ref": "#/components/schemas/LatitudeOrNull"
              },
              "longitude": {
                "$ref": "#/components/schemas/LongitudeOrNull"
              },
              "distance_m": {
                "$ref": "#/components/schemas/DistanceFromPoint"
              },
              "timezone": {
                "$ref": "#/components/schemas/TimeZone"
              },
              "opening_hours": {
                "$ref": "#/components/schemas/OpeningHours"
              },
              "state": {
                "$ref": "#/components/schemas/StoreState"
              },
              "comment": {
                "$ref": "#/components/schemas/RuleComment"
              },
              "next_change": {
                "$ref": "#/components/schemas/NextChange"
              },
              "status_text": {
                "$ref": "#/components/schemas/StatusText"
              },
              "phone": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "website": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "properties": {
                "$ref": "#/components/schemas/RecordProperties"
              }
            }
          },
          "PickupStore": {
            "type": "object",
            "description": "A store in a pickup plan, with its distance from the customer and its state at the pickup time (docs/schemas/pickup-result.schema.json).",
            "required": [
              "id",
              "name",
              "brand",
              "address",
              "latitude",
              "longitude",
              "distance_m",
              "timezone",
              "opening_hours",
              "state",
              "comment",
              "next_change",
              "status_text",
              "phone",
              "website",
              "properties"
            ],
            "additionalProperties": false,
            "properties": {
              "id": {
                "$ref": "#/components/schemas/StoreId"
              },
              "name": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "brand": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "address": {
                "$ref": "#/components/schemas/Address"
              },
              "latitude": {
                "$ref": "#/components/schemas/LatitudeOrNull"
              },
              "longitude": {
                "$ref": "#/components/schemas/LongitudeOrNull"
              },
              "distance_m": {
                "type": "number",
                "minimum": 0,
                "description": "Great-circle metres from the customer."
              },
              "timezone": {
                "$ref": "#/components/schemas/TimeZone"
              },
              "opening_hours": {
                "$ref": "#/components/schemas/OpeningHours"
              },
              "state": {
                "$ref": "#/components/schemas/StoreState"
              },
              "comment": {
                "$ref": "#/components/schemas/RuleComment"
              },
              "next_change": {
                "$ref": "#/components/schemas/NextChange"
              },
              "status_text": {
                "$ref": "#/components/schemas/StatusText"
              },
              "phone": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "website": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "properties": {
                "$ref": "#/components/schemas/RecordProperties"
              }
            }
          },
          "OpenStore": {
            "type": "object",
            "description": "`stores open ID --format json`: the store with its state at the time asked (`state`, `status_text`), and `open_for`.",
            "required": [
              "id",
              "name",
              "brand",
              "address",
              "latitude",
              "longitude",
              "distance_m",
              "timezone",
              "opening_hours",
              "state",
              "comment",
              "next_change",
              "status_text",
              "phone",
              "website",
              "properties",
              "open_for"
            ],
            "additionalProperties": false,
            "properties": {
              "id": {
                "$ref": "#/components/schemas/StoreId"
              },
              "name": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "brand": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "address": {
                "$ref": "#/components/schemas/Address"
              },
              "latitude": {
                "$ref": "#/components/schemas/LatitudeOrNull"
              },
              "longitude": {
                "$ref": "#/components/schemas/LongitudeOrNull"
              },
              "distance_m": {
                "$ref": "#/components/schemas/DistanceFromPoint"
              },
              "timezone": {
                "$ref": "#/components/schemas/TimeZone"
              },
              "opening_hours": {
                "$ref": "#/components/schemas/OpeningHours"
              },
              "state": {
                "$ref": "#/components/schemas/StoreState"
              },
              "comment": {
                "$ref": "#/components/schemas/RuleComment"
              },
              "next_change": {
                "$ref": "#/components/schemas/NextChange"
              },
              "status_text": {
                "$ref": "#/components/schemas/StatusText"
              },
              "phone": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "website": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "properties": {
                "$ref": "#/components/schemas/RecordProperties"
              },
              "open_for": {
                "description": "With `for`: whether the store stays open that long from the time asked; null without `for`.",
                "oneOf": [
                  {
                    "type": "object",
                    "required": [
                      "seconds",
                      "met",
                      "text"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "seconds": {
                        "type": "integer",
                        "minimum": 0
                      },
                      "met": {
                        "type": [
                          "boolean",
                          "null"
                        ],
                        "description": "True: open throughout; false: closed at some point; null: the hours do not say."
                      },
                      "text": {
                        "type": "string",
                        "description": "`stays open for the next 30 min`, `closes before 30 min are up`, `so not open for 30 min`."
                      }
                    }
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            }
          },
          "NearestQuery": {
            "type": "object",
            "description": "The question as the service understood it.",
            "required": [
              "near",
              "k",
              "within_m",
              "where",
              "at",
              "open",
              "open_for_s"
            ],
            "additionalProperties": false,
            "properties": {
              "near": {
                "$ref": "#/components/schemas/Coordinate"
              },
              "k": {
                "$ref": "#/components/schemas/StoreCount"
              },
              "within_m": {
                "type": [
                  "number",
                  "null"
                ],
                "minimum": 0
              },
              "where": {
                "$ref": "#/components/schemas/WhereTexts"
              },
              "at": {
                "type": "string",
                "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z| \\(local time at each store\\))$",
                "description": "The time the states describe: an instant, or a wall time `(local time at each store)`."
              },
              "open": {
                "type": "boolean",
                "description": "Whether an opening-hours condition was applied."
              },
              "open_for_s": {
                "type": [
                  "integer",
                  "null"
                ],
                "minimum": 0
              }
            }
          },
          "WithinQuery": {
            "type": "object",
            "description": "The question as the service understood it: `near` with `radius_m`, or `bbox`.",
            "required": [
              "where",
              "at",
              "open",
              "open_for_s",
              "limit",
              "cursor"
            ],
            "additionalProperties": false,
            "properties": {
              "near": {
                "$ref": "#/components/schemas/Coordinate"
              },
              "radius_m": {
                "type": "number",
                "minimum": 0
              },
              "bbox": {
                "type": "array",
                "items": {
                  "type": "number"
                },
                "minItems": 4,
                "maxItems": 4,
                "description": "[west, south, east, north]."
              },
              "where": {
                "$ref": "#/components/schemas/WhereTexts"
              },
              "at": {
                "type": "string",
                "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z| \\(local time at each store\\))$"
              },
              "open": {
                "type": "boolean"
              },
              "open_for_s": {
                "type": [
                  "integer",
                  "null"
                ],
                "minimum": 0
              },
              "limit": {
                "$ref": "#/components/schemas/StoreCount"
              },
              "cursor": {
                "type": [
                  "string",
                  "null"
                ],
                "description": "The cursor given, shortened if long."
              }
            },
            "oneOf": [
              {
                "required": [
                  "near",
                  "radius_m"
                ]
              },
              {
                "required": [
                  "bbox"
                ]
              }
            ]
          },
          "NearestAnswer": {
            "type": "object",
            "description": "`stores nearest --format json`: the stores nearest first.",
            "required": [
              "query",
              "count",
              "stores"
            ],
            "additionalProperties": false,
            "properties": {
              "query": {
                "$ref": "#/components/schemas/NearestQuery"
              },
              "count": {
                "type": "integer",
                "minimum": 0,
                "maximum": 1000,
                "description": "The number of `stores`."
              },
              "stores": {
                "$ref": "#/components/schemas/StoreList"
              }
            }
          },
          "WithinAnswer": {
            "type": "object",
            "description": "`stores within --format json`, one page: a circle's stores nearest first, a box's in the data's order.",
            "required": [
              "query",
              "count",
              "stores",
              "next_cursor"
            ],
            "additionalProperties": false,
            "properties": {
              "query": {
                "$ref": "#/components/schemas/WithinQuery"
              },
              "count": {
                "type": "integer",
                "minimum": 0,
                "maximum": 1000
              },
              "stores": {
                "$ref": "#/components/schemas/StoreList"
              },
              "next_cursor": {
                "type": [
                  "string",
                  "null"
                ],
                "pattern": "^[0-9a-f]{16}\\.[0-9]+$",
                "description": "Pass it as `cursor` (with the same other parameters) for the next page; null on the last page."
              }
            }
          },
          "Feature": {
            "type": "object",
            "description": "A store as a GeoJSON Feature: the store object is its `properties` (the record's own properties stay nested one level down, so a file's `state` key never meets the store's open `state`).",
            "required": [
              "type",
              "id",
              "geometry",
              "properties"
            ],
            "additionalProperties": false,
            "properties": {
              "type": {
                "const": "Feature"
              },
              "id": {
                "type": "string"
              },
              "geometry": {
                "oneOf": [
                  {
                    "type": "object",
                    "required": [
                      "type",
                      "coordinates"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "type": {
                        "const": "Point"
                      },
                      "coordinates": {
                        "type": "array",
                        "items": {
                          "type": "number"
                        },
                        "minItems": 2,
                        "maxItems": 2,
                        "description": "[longitude, latitude], as GeoJSON orders them."
                      }
                    }
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "properties": {
                "$ref": "#/components/schemas/Store"
              }
            }
          },
          "FeatureCollection": {
            "type": "object",
            "description": "`--format geojson` (`format=geojson`): RFC 7946, one feature a line, with the `query` as a foreign member on searches.",
            "required": [
              "type",
              "features"
            ],
            "additionalProperties": false,
            "properties": {
              "type": {
                "const": "FeatureCollection"
              },
              "query": {
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/NearestQuery"
                  },
                  {
                    "$ref": "#/components/schemas/WithinQuery"
                  }
                ]
              },
              "features": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/Feature"
                }
              }
            }
          },
          "HoursAnswer": {
            "type": "object",
            "description": "`stores hours ID --format json`: the state at the time asked and the spans of each local day from that day on. A store without usable hours has the same members, `state` `unknown` and no days.",
            "required": [
              "opening_hours",
              "timezone",
              "at",
              "state",
              "comment",
              "next_change",
              "status_text",
              "warnings",
              "days"
            ],
            "additionalProperties": false,
            "properties": {
              "opening_hours": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "timezone": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "at": {
                "type": "string",
                "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2}(:[0-9]{2})?)$",
                "description": "The time asked, in the store's time zone."
              },
              "state": {
                "enum": [
                  "open",
                  "closed",
                  "unknown"
                ]
              },
              "comment": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "next_change": {
                "oneOf": [
                  {
                    "type": "string",
                    "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2}(:[0-9]{2})?)$"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "status_text": {
                "type": "string"
              },
              "warnings": {
                "type": "array",
                "items": {
                  "type": "string"
                },
                "description": "What the hours parser tolerated or doubts (`opening_hours` text problems)."
              },
              "days": {
                "type": "array",
                "maxItems": 366,
                "items": {
                  "type": "object",
                  "required": [
                    "date",
                    "spans"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "date": {
                      "type": "string",
                      "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
                    },
                    "spans": {
                      "type": "array",
                      "items": {
                        "type": "object",
                        "required": [
                          "start",
                          "end",
                          "state",
                          "comment"
                        ],
                        "additionalProperties": false,
                        "properties": {
                          "start": {
                            "type": [
                              "string",
                              "null"
                            ],
                            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$",
                            "description": "Local wall time; null when the span runs in from the day before."
                          },
                          "end": {
                            "type": [
                              "string",
                              "null"
                            ],
                            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$",
                            "description": "Local wall time; null when the span runs on past the last day listed."
                          },
                          "state": {
                            "enum": [
                              "open",
                              "closed",
                              "unknown"
                            ]
                          },
                          "comment": {
                            "type": [
                              "string",
                              "null"
                            ]
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          },
          "Info": {
            "type": "object",
            "description": "`stores info --format json`: a summary of the data being served.",
            "required": [
              "source",
              "snapshot",
              "records",
              "indexed",
              "bounds",
              "timezones",
              "stores_without_timezone",
              "brands",
              "stores_without_brand",
              "stores_with_opening_hours",
              "stores_with_schedule",
              "stores_with_invalid_hours",
              "stores_with_tolerated_hours",
              "stores_with_inferred_timezone",
              "attributes",
              "errors",
              "warnings",
              "notes",
              "diagnostic_codes",
              "diagnostic_groups"
            ],
            "additionalProperties": false,
            "properties": {
              "source": {
                "$ref": "#/components/schemas/SourcePath"
              },
              "snapshot": {
                "type": [
                  "string",
                  "null"
                ],
                "description": "The snapshot's path when the data is one."
              },
              "records": {
                "type": "integer",
                "minimum": 0
              },
              "indexed": {
                "type": "integer",
                "minimum": 0,
                "description": "Stores with a location, in the spatial index."
              },
              "bounds": {
                "oneOf": [
                  {
                    "type": "array",
                    "items": {
                      "type": "number"
                    },
                    "minItems": 4,
                    "maxItems": 4,
                    "description": "[west, south, east, north] of the located stores."
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "timezones": {
                "type": "object",
                "additionalProperties": {
                  "type": "integer",
                  "minimum": 1
                },
                "description": "Stores per IANA zone, most first."
              },
              "stores_without_timezone": {
                "type": "integer",
                "minimum": 0
              },
              "brands": {
                "$ref": "#/components/schemas/Counts"
              },
              "stores_without_brand": {
                "type": "integer",
                "minimum": 0
              },
              "stores_with_opening_hours": {
                "type": "integer",
                "minimum": 0
              },
              "stores_with_schedule": {
                "type": "integer",
                "minimum": 0
              },
              "stores_with_invalid_hours": {
                "type": "integer",
                "minimum": 0
              },
              "stores_with_tolerated_hours": {
                "type": "integer",
                "minimum": 0
              },
              "stores_with_inferred_timezone": {
                "type": "integer",
                "minimum": 0
              },
              "attributes": {
                "type": "array",
                "description": "The properties a `where=KEY=VALUE` condition can usefully pick stores by: at most 16 distinct values of at most 40 bytes each (such as `drive_through`, `wheelchair`), sorted by key, each with its stores per value, most first. Left out: a key every store has with the same value, and the `opening_hours` keys (ask with `open_at`). The store picker page offers these as filters.",
                "items": {
                  "type": "object",
                  "additionalProperties": false,
                  "required": [
                    "key",
                    "values"
                  ],
                  "properties": {
                    "key": {
                      "type": "string"
                    },
                    "values": {
                      "type": "object",
                      "additionalProperties": {
                        "type": "integer",
                        "minimum": 1
                      },
                      "minProperties": 1,
                      "maxProperties": 16
                    }
                  }
                }
              },
              "errors": {
                "type": "integer",
                "minimum": 0
              },
              "warnings": {
                "type": "integer",
                "minimum": 0
              },
              "notes": {
                "type": "integer",
                "minimum": 0
              },
              "diagnostic_codes": {
                "$ref": "#/components/schemas/Counts"
              },
              "diagnostic_groups": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": [
                    "code",
                    "severity",
                    "count"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "code": {
                      "type": "string"
                    },
                    "severity": {
                      "enum": [
                        "error",
                        "warning",
                        "note"
                      ]
                    },
                    "count": {
                      "type": "integer",
                      "minimum": 1
                    }
                  }
                }
              }
            }
          },
          "LatLon": {
            "type": "string",
            "pattern": "^-?(90(\\.0+)?|[1-8]?[0-9](\\.[0-9]+)?),-?(180(\\.0+)?|(1[0-7][0-9]|[1-9]?[0-9])(\\.[0-9]+)?)$",
            "description": "`LAT,LON` in degrees, latitude first (GeoJSON writes longitude first; a pair that looks swapped is refused with a sentence that says so). The service also reads spaces around the numbers and exponents.",
            "example": "47.6062,-122.3321"
          },
          "Box": {
            "type": "string",
            "pattern": "^-?(180(\\.0+)?|(1[0-7][0-9]|[1-9]?[0-9])(\\.[0-9]+)?),-?(90(\\.0+)?|[1-8]?[0-9](\\.[0-9]+)?),-?(180(\\.0+)?|(1[0-7][0-9]|[1-9]?[0-9])(\\.[0-9]+)?),-?(90(\\.0+)?|[1-8]?[0-9](\\.[0-9]+)?)$",
            "description": "`W,S,E,N` in degrees; south at most north (not expressible as a pattern: a box with south above north is a 400); west greater than east crosses the antimeridian."
          },
          "Time": {
            "type": "string",
            "pattern": "^(190[1-9]|19[1-9][0-9]|[2-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-6])-((0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|1[02])-31)[T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?(Z|[+-](0[0-9]|1[0-7]):[0-5][0-9])?$",
            "description": "An instant (`2026-12-24T09:00:00Z`, `2026-12-24T09:00+01:00`) or a wall time without an offset (`2026-12-24T09:00`), which means that time in each store's own time zone. Seconds are optional; a space may stand for `T`. A date alone is refused (give a time of day). Accepted years: 1900 to 9997; the pattern promises 1901 to 9996 and leaves out 29 February, whose validity depends on the year."
          },
          "Instant": {
            "type": "string",
            "pattern": "^(190[1-9]|19[1-9][0-9]|[2-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-6])-((0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|1[02])-31)[T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?(Z|[+-](0[0-9]|1[0-7]):[0-5][0-9])$",
            "description": "An instant, with `Z` or an offset: one moment everywhere (`2026-11-22T07:45:00Z`, `2026-11-22T16:45+09:00`). Accepted years: 1900 to 9997; the pattern promises 1901 to 9996 without 29 February.",
            "example": "2026-11-22T07:45:00Z"
          },
          "Duration": {
            "type": "string",
            "pattern": "^([0-9]{1,3}h( ?[0-9]{1,4}m)?( ?[0-9]{1,5}s)?|[0-9]{1,4}m( ?[0-9]{1,5}s)?|[0-9]{1,5}s|([0-9]{1,2}|[12][0-9]{2}|3[0-5][0-9]|36[0-6])d|P([0-9]{1,2}|[12][0-9]{2}|3[0-5][0-9]|36[0-6])D|PT([0-9]{1,3}H([0-9]{1,4}M)?|[0-9]{1,4}M))$",
            "description": "Every number has its unit: `90s`, `15m`, `1h30m`, `1h 30m`, `2d`, or ISO 8601 `PT15M`, `PT1H30M`, `P1D`; at most 366 days. A bare number is refused (seconds or minutes would be a guess). The pattern is the part of the grammar this contract promises; the service also reads upper-case units, `1d2h` and ISO weeks (`P1W`) within the same bound.",
            "example": "30m"
          },
          "PositiveDuration": {
            "type": "string",
            "pattern": "^([1-9][0-9]{0,2}h( ?[0-9]{1,4}m)?|[1-9][0-9]{0,3}m|[1-9][0-9]{0,4}s|([1-9]|[1-9][0-9]|[12][0-9]{2}|3[0-5][0-9]|36[0-6])d|PT([1-9][0-9]{0,2}H|[1-9][0-9]{0,3}M))$",
            "description": "A duration above zero.",
            "example": "45m"
          },
          "ShortDuration": {
            "type": "string",
            "pattern": "^([0-9]{1,4}s|[0-9]{1,3}m|(1?[0-9]|2[0-4])h|[01]d|PT([0-9]{1,3}M|(1?[0-9]|2[0-4])H))$",
            "description": "A duration of at most a day (`10m`, `1h`, `PT15M`).",
            "example": "10m"
          },
          "Distance": {
            "type": "string",
            "pattern": "^([0-9]{1,4}(\\.[0-9]+)?(km|mi)|[0-9]{1,7}(\\.[0-9]+)?(m|ft)?)$",
            "description": "A number with an optional unit `m`, `km`, `mi` or `ft` (`500m`, `2km`, `1.5mi`); a bare number is metres. The service also reads spaces, upper case and the long unit names (`2 kilometres`).",
            "example": "2km"
          },
          "Reach": {
            "type": "string",
            "pattern": "^([0-9]+(\\.[0-9]+)?|[0-9]{1,9}(\\.[0-9]+)?[eE][+-]?([0-9]{1,2}|1[0-9]{2}|2[0-8][0-9]|29[0-5]))( ?(m|km|mi|ft))?$",
            "description": "A distance without an upper bound (exponents too: `1e4m`). A number with an optional unit `m`, `km`, `mi` or `ft` (`500m`, `2km`, `1.5mi`); a bare number is metres. The service also reads spaces, upper case and the long unit names (`2 kilometres`).",
            "example": "2km"
          },
          "PickupDistance": {
            "type": "string",
            "pattern": "^([0-9]{1,3}(\\.[0-9]+)?km|[0-9]{1,2}(\\.[0-9]+)?mi|[0-9]{1,6}(\\.[0-9]+)?(m|ft)?)$",
            "description": "At most 1000 km. A number with an optional unit `m`, `km`, `mi` or `ft` (`500m`, `2km`, `1.5mi`); a bare number is metres. The service also reads spaces, upper case and the long unit names (`2 kilometres`).",
            "example": "5km"
          },
          "Condition": {
            "type": "string",
            "pattern": "^([^=!]|!$|![^=])",
            "description": "A condition on the store's properties: `KEY=VALUE` (the property, or one of its values in an array or an OSM `;` list, equals VALUE; `yes`/`true` and `no`/`false` match each other), `KEY!=VALUE` (no value equals VALUE, or the key is absent) or `KEY` alone (present, not null, not `no`/`false`). Repeat the parameter for several conditions; a store must meet all.",
            "example": "drive_through=yes"
          },
          "Flag": {
            "type": "string",
            "enum": [
              "true",
              "false",
              "1",
              "0",
              "yes",
              "no",
              ""
            ],
            "description": "A yes/no switch: `true`, `1`, `yes`, or the name alone (`&open_now`) for yes; `false`, `0`, `no` for no (the service reads them in any case)."
          },
          "TravelMode": {
            "type": "string",
            "pattern": "^(walk|bike|drive|foot|car|cycle|[1-9][0-9]{0,2}(\\.[0-9]{1,2})? ?(km/h|kmh|kph|m/s|mph))$",
            "description": "`walk` (5 km/h, the default), `bike` (15 km/h), `drive` (30 km/h), or a speed above zero: `12km/h`, `3m/s`, `10mph`. The service also reads `walking`, `bicycle`, `driving` and any case.",
            "example": "bike"
          },
          "PickupResult": {
            "type": "object",
            "description": "The pickup plan (`stores pickup --format json`, docs/pickup.md; docs/schemas/pickup-result.schema.json). Members are always present, in this order; those that do not apply are null.",
            "required": [
              "status",
              "store",
              "ready_at",
              "arrival_at",
              "pickup_at",
              "pickup_at_local",
              "travel",
              "close_buffer_s",
              "warnings",
              "alternatives",
              "passed_over",
              "earliest"
            ],
            "additionalProperties": false,
            "properties": {
              "status": {
                "enum": [
                  "assigned",
                  "none"
                ]
              },
              "store": {
                "description": "The assigned store; null when none is assigned.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/PickupStore"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "ready_at": {
                "allOf": [
                  {
                    "$ref": "#/components/schemas/UtcTime"
                  }
                ],
                "description": "When the order is ready (at the assigned store, else at the nearest store considered)."
              },
              "arrival_at": {
                "$ref": "#/components/schemas/UtcTimeOrNull"
              },
              "pickup_at": {
                "$ref": "#/components/schemas/UtcTimeOrNull"
              },
              "pickup_at_local": {
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/LocalTime"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "travel": {
                "type": "object",
                "required": [
                  "mode",
                  "speed_kmh",
                  "detour_factor",
                  "duration_s",
                  "max_duration_s"
                ],
                "additionalProperties": false,
                "properties": {
                  "mode": {
                    "enum": [
                      "walk",
                      "bike",
                      "drive",
                      "speed"
                    ]
                  },
                  "speed_kmh": {
                    "type": "number",
                    "exclusiveMinimum": 0
                  },
                  "detour_factor": {
                    "type": "number",
                    "minimum": 1
                  },
                  "duration_s": {
                    "type": [
                      "integer",
                      "null"
                    ],
                    "minimum": 0
                  },
                  "max_duration_s": {
                    "type": "integer",
                    "exclusiveMinimum": 0,
                    "description": "The travel bound: stores farther than this in travel time are passed over as too-far."
                  }
                }
              },
              "close_buffer_s": {
                "type": "integer",
                "minimum": 0
              },
              "warnings": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": [
                    "code",
                    "store_id",
                    "message"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "code": {
                      "enum": [
                        "chosen-not-eligible",
                        "closes-soon",
                        "far-from-customer",
                        "outside-search-radius",
                        "timezone-inferred",
                        "hours-warnings",
                        "hours-unknown",
                        "ready-before-order",
                        "opens-later",
                        "no-opening-found",
                        "no-stores-nearby"
                      ]
                    },
                    "store_id": {
                      "type": [
                        "string",
                        "null"
                      ]
                    },
                    "message": {
                      "type": "string",
                      "minLength": 1
                    }
                  }
                }
              },
              "alternatives": {
                "type": "array",
                "maxItems": 100,
                "items": {
                  "type": "object",
                  "required": [
                    "store",
                    "ready_at",
                    "arrival_at",
                    "pickup_at",
                    "pickup_at_local"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "store": {
                      "$ref": "#/components/schemas/PickupStore"
                    },
                    "ready_at": {
                      "$ref": "#/components/schemas/UtcTime"
                    },
                    "arrival_at": {
                      "$ref": "#/components/schemas/UtcTime"
                    },
                    "pickup_at": {
                      "$ref": "#/components/schemas/UtcTime"
                    },
                    "pickup_at_local": {
                      "$ref": "#/components/schemas/LocalTime"
                    }
                  }
                }
              },
              "passed_over": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": [
                    "store_id",
                    "code",
                    "distance_m",
                    "message"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "store_id": {
                      "type": "string"
                    },
                    "code": {
                      "enum": [
                        "closed-at-pickup",
                        "closes-before-pickup",
                        "closes-too-soon",
                        "hours-unknown",
                        "no-opening-hours",
                        "no-location",
                        "missing-attribute",
                        "too-far"
                      ]
                    },
                    "distance_m": {
                      "type": [
                        "number",
                        "null"
                      ],
                      "minimum": 0
                    },
                    "message": {
                      "type": "string",
                      "minLength": 1
                    }
                  }
                }
              },
              "earliest": {
                "description": "When nothing is assigned: the earliest time one of the nearest stores could serve; null otherwise, or when none opens within 14 days.",
                "oneOf": [
                  {
                    "type": "object",
                    "required": [
                      "store_id",
                      "distance_m",
                      "pickup_at",
                      "pickup_at_local"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "store_id": {
                        "type": "string"
                      },
                      "distance_m": {
                        "type": [
                          "number",
                          "null"
                        ],
                        "minimum": 0
                      },
                      "pickup_at": {
                        "$ref": "#/components/schemas/UtcTime"
                      },
                      "pickup_at_local": {
                        "$ref": "#/components/schemas/LocalTime"
                      }
                    }
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "allOf": [
              {
                "if": {
                  "properties": {
                    "status": {
                      "const": "assigned"
                    }
                  }
                },
                "then": {
                  "properties": {
                    "store": {
                      "type": "object"
                    },
                    "pickup_at": {
                      "type": "string"
                    },
                    "pickup_at_local": {
                      "type": "string"
                    },
                    "earliest": {
                      "type": "null"
                    }
                  }
                },
                "else": {
                  "properties": {
                    "store": {
                      "type": "null"
                    },
                    "pickup_at": {
                      "type": "null"
                    },
                    "alternatives": {
                      "maxItems": 0
                    }
                  }
                }
              }
            ]
          },
          "Order": {
            "type": "object",
            "description": "An order document (docs/schemas/order.schema.json, docs/pickup.md): `id`, `customer` and `items` are required; other members are kept and come back as sent. The query string may add pickup parameters. Tighter than the file schema where the service is: the pickup time's calendar, the quantity's bound.",
            "required": [
              "id",
              "customer",
              "items"
            ],
            "properties": {
              "id": {
                "oneOf": [
                  {
                    "type": "string",
                    "minLength": 1
                  },
                  {
                    "type": "number"
                  }
                ],
                "description": "The order's id; a number is kept as written."
              },
              "customer": {
                "type": "object",
                "required": [
                  "latitude",
                  "longitude"
                ],
                "description": "Where the customer is; other members are ignored.",
                "properties": {
                  "latitude": {
                    "$ref": "#/components/schemas/Latitude"
                  },
                  "longitude": {
                    "$ref": "#/components/schemas/Longitude"
                  }
                }
              },
              "items": {
                "type": "array",
                "minItems": 1,
                "description": "What to prepare; the order is ready when the last unit is (quantities add up).",
                "items": {
                  "type": "object",
                  "required": [
                    "name",
                    "prep_minutes"
                  ],
                  "properties": {
                    "name": {
                      "type": "string",
                      "minLength": 1
                    },
                    "quantity": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 999999999,
                      "default": 1
                    },
                    "prep_minutes": {
                      "type": "number",
                      "minimum": 0,
                      "maximum": 1440,
                      "description": "Minutes to prepare one unit."
                    }
                  }
                }
              },
              "pickup_time": {
                "description": "`asap` (the default, any case), an instant with an offset, or a wall time read in the store's time zone; the order is ready at this time, or when prepared if that is later.",
                "oneOf": [
                  {
                    "const": "asap"
                  },
                  {
                    "type": "null"
                  },
                  {
                    "$ref": "#/components/schemas/Time"
                  }
                ]
              },
              "store": {
                "type": [
                  "string",
                  "number",
                  "null"
                ],
                "minLength": 1,
                "description": "The id of the store the customer chose (a number is read as its text)."
              },
              "where": {
                "description": "Required attributes, as `--where` writes them.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/Conditions"
                  },
                  {
                    "$ref": "#/components/schemas/Condition"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            }
          },
          "OrderWithPickup": {
            "description": "The order as sent, every member in its place, with its plan added as `pickup` (replacing one the order had).",
            "allOf": [
              {
                "$ref": "#/components/schemas/Order"
              },
              {
                "type": "object",
                "required": [
                  "pickup"
                ],
                "properties": {
                  "pickup": {
                    "$ref": "#/components/schemas/PickupResult"
                  }
                }
              }
            ]
          },
          "PickupRequest": {
            "type": "object",
            "description": "A plain pickup request: the query-string parameters of `stores pickup` as members. `near` and exactly one of `ready_in` or `ready_at` are required; a member that is null counts as absent.",
            "required": [
              "near"
            ],
            "additionalProperties": false,
            "properties": {
              "near": {
                "description": "Where the customer is: `\"LAT,LON\"` or `{\"latitude\": …, \"longitude\": …}`.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/LatLon"
                  },
                  {
                    "type": "object",
                    "required": [
                      "latitude",
                      "longitude"
                    ],
                    "properties": {
                      "latitude": {
                        "$ref": "#/components/schemas/Latitude"
                      },
                      "longitude": {
                        "$ref": "#/components/schemas/Longitude"
                      }
                    }
                  }
                ]
              },
              "ready_in": {
                "description": "How long the order takes to prepare, from now (or `now`).",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/Duration"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "ready_at": {
                "description": "When the order is ready.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/Time"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "store": {
                "type": [
                  "string",
                  "number",
                  "null"
                ],
                "minLength": 1,
                "description": "The store the customer chose; the plan says whether it can serve, with alternatives."
              },
              "within": {
                "description": "How far to look for stores, default 10 km, at most 1000 km (a number is metres).",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/PickupDistance"
                  },
                  {
                    "type": "number",
                    "minimum": 0,
                    "maximum": 1000000
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "close_buffer": {
                "description": "How long before closing a store stops taking pickups, default 10m, at most a day.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/ShortDuration"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "travel": {
                "description": "`walk` (default, 5 km/h), `bike` (15 km/h), `drive` (30 km/h), or a speed such as `12km/h`, `3m/s`, `10mph`.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/TravelMode"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "max_travel": {
                "description": "The longest travel time to a store, default 2h; farther stores are passed over as `too-far`. Above zero.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/PositiveDuration"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "allow_unknown": {
                "description": "Whether a store whose hours are unknown at the pickup time may be assigned (default false).",
                "oneOf": [
                  {
                    "type": "boolean"
                  },
                  {
                    "enum": [
                      "true",
                      "false",
                      "yes",
                      "no",
                      "1",
                      "0",
                      "",
                      0,
                      1
                    ]
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "alternatives": {
                "description": "How many other eligible stores to list, 0 to 100 (default 3).",
                "oneOf": [
                  {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 100
                  },
                  {
                    "type": "string",
                    "pattern": "^(100|[1-9]?[0-9])$"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "where": {
                "description": "Required attributes. A condition on the store's properties: `KEY=VALUE` (the property, or one of its values in an array or an OSM `;` list, equals VALUE; `yes`/`true` and `no`/`false` match each other), `KEY!=VALUE` (no value equals VALUE, or the key is absent) or `KEY` alone (present, not null, not `no`/`false`). Repeat the parameter for several conditions; a store must meet all.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/Conditions"
                  },
                  {
                    "$ref": "#/components/schemas/Condition"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "now": {
                "description": "The order time, for a reproducible answer (default: the clock). An instant, with `Z` or an offset.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/Instant"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            },
            "oneOf": [
              {
                "required": [
                  "ready_in"
                ],
                "properties": {
                  "ready_in": {
                    "type": "string"
                  }
                }
              },
              {
                "required": [
                  "ready_at"
                ],
                "properties": {
                  "ready_at": {
                    "type": "string"
                  }
                }
              }
            ]
          },
          "Health": {
            "type": "object",
            "required": [
              "status"
            ],
            "additionalProperties": false,
            "properties": {
              "status": {
                "const": "ok"
              }
            }
          },
          "Ready": {
            "type": "object",
            "required": [
              "status",
              "version",
              "stores",
              "source"
            ],
            "additionalProperties": false,
            "properties": {
              "status": {
                "const": "ready"
              },
              "version": {
                "type": "string",
                "pattern": "^[0-9a-f]{16}$",
                "description": "The data version served (`X-Stores-Data-Version`)."
              },
              "stores": {
                "type": "integer",
                "minimum": 0
              },
              "source": {
                "$ref": "#/components/schemas/SourcePath"
              }
            }
          },
          "Reloaded": {
            "type": "object",
            "required": [
              "reloaded",
              "version",
              "previous_version",
              "stores",
              "source",
              "load_seconds"
            ],
            "additionalProperties": false,
            "properties": {
              "reloaded": {
                "const": true
              },
              "version": {
                "type": "string",
                "pattern": "^[0-9a-f]{16}$",
                "description": "The version now served; the same as before when the file did not change."
              },
              "previous_version": {
                "type": [
                  "string",
                  "null"
                ],
                "pattern": "^[0-9a-f]{16}$"
              },
              "stores": {
                "type": "integer",
                "minimum": 0
              },
              "source": {
                "type": "string"
              },
              "load_seconds": {
                "type": "number",
                "minimum": 0
              }
            }
          },
          "NextChange": {
            "oneOf": [
              {
                "$ref": "#/components/schemas/LocalTime"
              },
              {
                "type": "null"
              }
            ],
            "description": "When `state` next changes, in the store's time zone; null when it does not within the look-ahead."
          },
          "DistanceFromPoint": {
            "type": [
              "number",
              "null"
            ],
            "minimum": 0,
            "description": "Great-circle metres from the point asked about; null when no point was asked (a store by id, a box)."
          },
          "StoreId": {
            "type": "string",
            "minLength": 1,
            "description": "The store's id, as the data gives it (`ref`, `@id`, `id`)."
          },
          "OpeningHours": {
            "type": [
              "string",
              "null"
            ],
            "description": "The OpenStreetMap `opening_hours` text as the data gives it."
          },
          "RuleComment": {
            "type": [
              "string",
              "null"
            ],
            "description": "The comment of the rule in force (`\"by appointment\"`)."
          },
          "StatusText": {
            "type": "string",
            "description": "The state in words: `open until 19:00`, `closed, opens 05:30`."
          },
          "StoreState": {
            "enum": [
              "open",
              "closed",
              "unknown"
            ],
            "description": "At the time asked (default now)."
          },
          "RecordProperties": {
            "type": "object",
            "description": "The record's own properties, exactly as in the data."
          },
          "Address": {
            "type": [
              "string",
              "null"
            ],
            "description": "One line, from the `addr:*` properties."
          },
          "StoreList": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Store"
            },
            "maxItems": 1000
          },
          "TimeZone": {
            "type": [
              "string",
              "null"
            ],
            "description": "The IANA zone the hours are read in."
          },
          "Counts": {
            "type": "object",
            "additionalProperties": {
              "type": "integer",
              "minimum": 1
            }
          },
          "UtcTimeOrNull": {
            "oneOf": [
              {
                "$ref": "#/components/schemas/UtcTime"
              },
              {
                "type": "null"
              }
            ]
          },
          "Conditions": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Condition"
            }
          },
          "LongitudeOrNull": {
            "type": [
              "number",
              "null"
            ],
            "minimum": -180,
            "maximum": 180
          },
          "LatitudeOrNull": {
            "type": [
              "number",
              "null"
            ],
            "minimum": -90,
            "maximum": 90
          },
          "SourcePath": {
            "type": "string",
            "description": "The data file's path."
          },
          "Longitude": {
            "type": "number",
            "minimum": -180,
            "maximum": 180
          },
          "StoreCount": {
            "type": "integer",
            "minimum": 1,
            "maximum": 1000
          },
          "Latitude": {
            "type": "number",
            "minimum": -90,
            "maximum": 90
          },
          "AnswerFormat": {
            "enum": [
              "json",
              "geojson"
            ],
            "default": "json"
          },
          "DataVersion": {
            "type": "string",
            "pattern": "^[0-9a-f]{16}$"
          },
          "WhereTexts": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "ClustersAnswer": {
            "type": "object",
            "description": "`stores clusters --format json`.",
            "required": [
              "query",
              "count",
              "clusters"
            ],
            "additionalProperties": false,
            "properties": {
              "query": {
                "$ref": "#/components/schemas/ClustersQuery"
              },
              "count": {
                "type": "integer",
                "minimum": 0,
                "description": "The stores in the box that meet the conditions: the sum of the clusters' counts."
              },
              "clusters": {
                "type": "array",
                "maxItems": 65536,
                "items": {
                  "$ref": "#/components/schemas/StoreCluster"
                }
              }
            }
          },
          "ClustersQuery": {
            "type": "object",
            "description": "The question as the service understood it.",
            "required": [
              "bbox",
              "columns",
              "rows",
              "where",
              "at",
              "open",
              "open_for_s"
            ],
            "additionalProperties": false,
            "properties": {
              "bbox": {
                "type": "array",
                "items": {
                  "type": "number"
                },
                "minItems": 4,
                "maxItems": 4,
                "description": "[west, south, east, north]."
              },
              "columns": {
                "type": "integer",
                "minimum": 1,
                "maximum": 256
              },
              "rows": {
                "type": "integer",
                "minimum": 1,
                "maximum": 256
              },
              "where": {
                "$ref": "#/components/schemas/WhereTexts"
              },
              "at": {
                "type": "string",
                "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z| \\(local time at each store\\))$"
              },
              "open": {
                "type": "boolean"
              },
              "open_for_s": {
                "type": [
                  "integer",
                  "null"
                ],
                "minimum": 0
              }
            }
          },
          "StoreCluster": {
            "type": "object",
            "description": "The stores of one cell.",
            "required": [
              "column",
              "row",
              "count",
              "latitude",
              "longitude",
              "bbox"
            ],
            "additionalProperties": false,
            "properties": {
              "column": {
                "type": "integer",
                "minimum": 0,
                "maximum": 255,
                "description": "From the box's west edge, from 0."
              },
              "row": {
                "type": "integer",
                "minimum": 0,
                "maximum": 255,
                "description": "From the box's south edge, from 0."
              },
              "count": {
                "type": "integer",
                "minimum": 1
              },
              "latitude": {
                "type": "number",
                "minimum": -90,
                "maximum": 90,
                "description": "The mean position of the stores."
              },
              "longitude": {
                "type": "number",
                "minimum": -180,
                "maximum": 180
              },
              "bbox": {
                "type": "array",
                "items": {
                  "type": "number"
                },
                "minItems": 4,
                "maxItems": 4,
                "description": "[west, south, east, north]: the smallest box holding the stores (west greater than east when they straddle the antimeridian)."
              },
              "id": {
                "type": "string",
                "description": "The store's id, when the cluster is one store."
              }
            }
          }
        },
        "parameters": {
          "Near": {
            "name": "near",
            "in": "query",
            "required": true,
            "description": "Where the customer is: `LAT,LON` in degrees, latitude first (GeoJSON writes longitude first; a pair that looks swapped is refused with a sentence that says so).",
            "schema": {
              "$ref": "#/components/schemas/LatLon"
            },
            "example": "47.6062,-122.3321"
          },
          "Where": {
            "name": "where",
            "in": "query",
            "required": false,
            "description": "Conditions on the stores' properties (`where=KEY=VALUE`, `KEY!=VALUE` or `KEY`); repeat it for several, a store must meet all.",
            "schema": {
              "$ref": "#/components/schemas/Conditions"
            },
            "example": [
              "drive_through=yes"
            ],
            "style": "form",
            "explode": true
          },
          "OpenNow": {
            "name": "open_now",
            "in": "query",
            "required": false,
            "description": "Only stores open now (`true`; also `1`, `yes`, or the name alone). Not with `open_at`.",
            "schema": {
              "$ref": "#/components/schemas/Flag"
            }
          },
          "OpenAt": {
            "name": "open_at",
            "in": "query",
            "required": false,
            "description": "Only stores open at this time; the states describe it. Not with `open_now`.",
            "schema": {
              "$ref": "#/components/schemas/Time"
            },
            "example": "2026-12-24T09:00"
          },
          "OpenFor": {
            "name": "open_for",
            "in": "query",
            "required": false,
            "description": "Only stores that stay open this long from the time asked (alone: from now).",
            "schema": {
              "$ref": "#/components/schemas/Duration"
            },
            "example": "30m"
          },
          "AllowUnknown": {
            "name": "allow_unknown",
            "in": "query",
            "required": false,
            "description": "With an opening condition, also keep stores whose hours do not say (default false).",
            "schema": {
              "$ref": "#/components/schemas/Flag"
            }
          },
          "Now": {
            "name": "now",
            "in": "query",
            "required": false,
            "description": "The clock to answer at, for reproducible answers (default: the service's clock). An instant: `Z` or an offset.",
            "schema": {
              "$ref": "#/components/schemas/Instant"
            },
            "example": "2026-11-22T07:45:00Z"
          },
          "Id": {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The store's id, percent-encoded (an id may hold `/` or spaces). Ids are compared byte for byte.",
            "schema": {
              "type": "string",
              "minLength": 1
            },
            "example": "nw-0145"
          },
          "RequestId": {
            "name": "X-Request-Id",
            "in": "header",
            "required": false,
            "description": "An id to log this request under and echo back (1 to 128 printable ASCII characters; anything else is replaced by a random id).",
            "schema": {
              "type": "string"
            }
          },
          "IfNoneMatch": {
            "name": "If-None-Match",
            "in": "header",
            "required": false,
            "description": "The `ETag` of an answer you hold (or `*`): 304 without a body while the answer is the same.",
            "schema": {
              "type": "string"
            }
          },
          "StoreFormat": {
            "name": "format",
            "in": "query",
            "required": false,
            "description": "`json` (default) or `geojson`: a FeatureCollection, as `--format geojson` writes it.",
            "schema": {
              "$ref": "#/components/schemas/AnswerFormat"
            }
          },
          "JsonOnlyFormat": {
            "name": "format",
            "in": "query",
            "required": false,
            "description": "Only `json`.",
            "schema": {
              "const": "json",
              "default": "json"
            }
          },
          "Force": {
            "name": "force",
            "in": "query",
            "required": false,
            "description": "`true` swaps the new data in whatever share of the stores it lacks (after an upstream change you checked); `false`, the default, refuses data that lacks more than `--max-store-loss` of the served stores. Only these two spellings; any other value, and any other parameter, is a 400.",
            "schema": {
              "type": "string",
              "enum": [
                "true",
                "false"
              ],
              "default": "false"
            }
          }
        },
        "responses": {
          "NotModified": {
            "description": "`If-None-Match` names the current ETag: the answer has not changed; no body.",
            "headers": {
              "X-Request-Id": {
                "$ref": "#/components/headers/X-Request-Id"
              },
              "X-Stores-Data-Version": {
                "$ref": "#/components/headers/X-Stores-Data-Version"
              },
              "ETag": {
                "$ref": "#/components/headers/ETag"
              },
              "Cache-Control": {
                "$ref": "#/components/headers/Cache-Control-Public"
              }
            }
          },
          "BadRequest": {
            "description": "The request is malformed: a parameter is missing, unknown, repeated, out of range or contradicts another (the CLI's sentence; `parameter` names it).",
            "headers": {
              "X-Request-Id": {
                "$ref": "#/components/headers/X-Request-Id"
              },
              "X-Stores-Data-Version": {
                "$ref": "#/components/headers/X-Stores-Data-Version"
              },
              "Cache-Control": {
                "$ref": "#/components/headers/Cache-Control-No-Store"
              }
            },
            "content": {
              "application/problem+json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/Problem"
                    },
                    {
                      "properties": {
                        "type": {
                          "enum": [
                            "urn:stores:problem:invalid-request"
                          ]
                        },
                        "status": {
                          "const": 400
                        }
                      }
                    }
                  ]
                },
                "example": {
                  "type": "urn:stores:problem:invalid-request",
                  "title": "The request is not valid",
                  "status": 400,
                  "detail": "unknown parameter 'ner'; did you mean near? (accepted: near, k, within, where, open_now, open_at, open_for, allow_unknown, now)",
                  "parameter": "ner"
                }
              }
            }
          },
          "UnknownStore": {
            "description": "No store has the id; `suggestions` holds the most similar ids (the CLI's \"did you mean\").",
            "headers": {
              "X-Request-Id": {
                "$ref": "#/components/headers/X-Request-Id"
              },
              "X-Stores-Data-Version": {
                "$ref": "#/components/headers/X-Stores-Data-Version"
              },
              "Cache-Control": {
                "$ref": "#/components/headers/Cache-Control-No-Store"
              }
            },
            "content": {
              "application/problem+json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/Problem"
                    },
                    {
                      "properties": {
                        "type": {
                          "enum": [
                            "urn:stores:problem:unknown-store"
                          ]
                        },
                        "status": {
                          "const": 404
                        }
                      }
                    }
                  ]
                },
                "example": {
                  "type": "urn:stores:problem:unknown-store",
                  "title": "No store has this id",
                  "status": 404,
                  "detail": "no store with id 'nw-01' in Data/stores.geojson; did you mean 'nw-0100', 'nw-0101', 'nw-0102'?",
                  "parameter": "id",
                  "suggestions": [
                    "nw-0100",
                    "nw-0101",
                    "nw-0102"
                  ]
                }
              }
            }
          },
          "AmbiguousStore": {
            "description": "The data gives several stores this id, so it names none; `candidates` says where each is (`stores validate` lists the repeats).",
            "headers": {
              "X-Request-Id": {
                "$ref": "#/components/headers/X-Request-Id"
              },
              "X-Stores-Data-Version": {
                "$ref": "#/components/headers/X-Stores-Data-Version"
              },
              "Cache-Control": {
                "$ref": "#/components/headers/Cache-Control-No-Store"
              }
            },
            "content": {
              "application/problem+json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/Problem"
                    },
                    {
                      "properties": {
                        "type": {
                          "enum": [
                            "urn:stores:problem:ambiguous-store"
                          ]
                        },
                        "status": {
                          "const": 409
                        }
                      }
                    }
                  ]
                },
                "example": {
                  "type": "urn:stores:problem:ambiguous-store",
                  "title": "Several stores share this id",
                  "status": 409,
                  "detail": "the id 'nw-7' names 2 stores in stores.geojson, so it does not say which one; ids must be unique ('stores validate' lists the repeats)",
                  "parameter": "id",
                  "candidates": [
                    {
                      "feature": 6,
                      "line": 8,
                      "column": 1,
                      "name": "Northwind Coffee Seattle",
                      "location": {
                        "latitude": 47.6087,
                        "longitude": -122.3325
                      }
                    },
                    {
                      "feature": 9,
                      "line": 11,
                      "column": 1,
                      "name": "Northwind Coffee Tacoma",
                      "location": {
                        "latitude": 47.2529,
                        "longitude": -122.4443
                      }
                    }
                  ]
                }
              }
            }
          },
          "Unavailable": {
            "description": "No data is loaded yet, the service is shutting down (`not-ready`), the request ran past the deadline (`timeout`, with `Retry-After`), or every query thread is busy and the queue of waiting queries is full (`overloaded`, with `Retry-After`). Retry, on another replica if there is one.",
            "headers": {
              "X-Request-Id": {
                "$ref": "#/components/headers/X-Request-Id"
              },
              "Cache-Control": {
                "$ref": "#/components/headers/Cache-Control-No-Store"
              },
              "Retry-After": {
                "$ref": "#/components/headers/Retry-After"
              },
              "X-Stores-Data-Version": {
                "$ref": "#/components/headers/X-Stores-Data-Version-If-Loaded"
              }
            },
            "content": {
              "application/problem+json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/Problem"
                    },
                    {
                      "properties": {
                        "type": {
                          "enum": [
                            "urn:stores:problem:not-ready",
                            "urn:stores:problem:timeout",
                            "urn:stores:problem:overloaded"
                          ]
                        },
                        "status": {
                          "const": 503
                        }
                      }
                    }
                  ]
                },
                "example": {
                  "type": "urn:stores:problem:timeout",
                  "title": "The request took too long",
                  "status": 503,
                  "detail": "the request was not answered within 10 s, the service's limit"
                }
              }
            }
          },
          "PageNotModified": {
            "description": "`If-None-Match` names the current ETag: the file has not changed; no body.",
            "headers": {
              "X-Request-Id": {
                "$ref": "#/components/headers/X-Request-Id"
              },
              "X-Stores-Data-Version": {
                "$ref": "#/components/headers/X-Stores-Data-Version"
              },
              "ETag": {
                "$ref": "#/components/headers/ETag"
              },
              "Cache-Control": {
                "$ref": "#/components/headers/Cache-Control-Page"
              }
            }
          },
          "NoSuchFile": {
            "description": "The service serves no file of this name here (`not-found`); `detail` lists the ones it does.",
            "headers": {
              "X-Request-Id": {
                "$ref": "#/components/headers/X-Request-Id"
              },
              "Cache-Control": {
                "$ref": "#/components/headers/Cache-Control-No-Store"
              },
              "X-Stores-Data-Version": {
                "$ref": "#/components/headers/X-Stores-Data-Version-If-Loaded"
              }
            },
            "content": {
              "application/problem+json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/Problem"
                    },
                    {
                      "properties": {
                        "type": {
                          "const": "urn:stores:problem:not-found"
                        },
                        "status": {
                          "const": 404
                        }
                      }
                    }
                  ]
                },
                "example": {
                  "type": "urn:stores:problem:not-found",
                  "title": "No such route",
                  "status": 404,
                  "detail": "no file '/page/app.js'; the service serves /page/basemap.json, /page/picker.css, /page/picker.js"
                }
              }
            }
          }
        },
        "headers": {
          "X-Request-Id": {
            "description": "The id this request is logged under: the caller's `X-Request-Id` when it is 1 to 128 printable ASCII characters, else 16 random hex digits. Quote it when reporting a problem.",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^[!-~]{1,128}$"
            },
            "example": "8898124f8cf55b9d"
          },
          "X-Stores-Data-Version": {
            "description": "The version of the data the answer was computed from (the snapshot's content checksum, or a checksum of the GeoJSON file): every request reads the catalog once, so the whole answer is from this version even while a reload swaps in another. A `within` cursor belongs to it.",
            "required": true,
            "schema": {
              "$ref": "#/components/schemas/DataVersion"
            },
            "example": "721c9fbf867edb1b"
          },
          "ETag": {
            "description": "A strong tag of the body's bytes (64-bit FNV-1a, hex). Send it back as `If-None-Match` to get 304 while the answer is unchanged.",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^\"[0-9a-f]{16}\"$"
            },
            "example": "\"dc6a8a4bdb22c1b4\""
          },
          "Cache-Control-Public": {
            "description": "`public, max-age=10`: answers about stores may be reused for a few seconds only, because whether a store is open changes with the clock (`/openapi.json`: `max-age=300`).",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^public, max-age=[0-9]+$"
            },
            "example": "public, max-age=10"
          },
          "Cache-Control-No-Store": {
            "description": "`no-store`: errors, health, metrics, pickup plans and admin answers must never be reused.",
            "required": true,
            "schema": {
              "type": "string",
              "const": "no-store"
            }
          },
          "X-Stores-Data-Version-If-Loaded": {
            "description": "The version of the data being served, when there is data (not before the first load).",
            "required": false,
            "schema": {
              "$ref": "#/components/schemas/DataVersion"
            }
          },
          "WWW-Authenticate": {
            "description": "The scheme the admin route takes.",
            "required": true,
            "schema": {
              "type": "string",
              "const": "Bearer realm=\"stores-admin\""
            }
          },
          "Retry-After": {
            "description": "Seconds to wait before retrying, on a request that ran past the deadline.",
            "required": false,
            "schema": {
              "type": "string",
              "pattern": "^[0-9]+$"
            }
          },
          "X-Stores-Note": {
            "description": "What `stores` writes on standard error beside the same answer, one header per sentence: why an answer is empty (a `where` key no store has, the stores in reach have no hours, …) or that `near` looks like LON,LAT. Printable ASCII as it is; any other byte of the UTF-8 sentence percent-encoded (`%C3%A9`). Absent when there is nothing to say.",
            "schema": {
              "type": "string"
            }
          },
          "Cache-Control-Page": {
            "description": "`no-cache` for the page and its files (revalidate with the ETag: a new release may change them), `public, max-age=86400` for Leaflet.",
            "required": true,
            "schema": {
              "type": "string",
              "pattern": "^(no-cache|public, max-age=[0-9]+)$"
            },
            "example": "no-cache"
          }
        },
        "securitySchemes": {
          "adminToken": {
            "type": "http",
            "scheme": "bearer",
            "description": "The value of `STORES_ADMIN_TOKEN` in the service's environment."
          }
        }
      }
    }
    """#
}
