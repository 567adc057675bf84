/// The service's contract, served at `GET /openapi.json`.
///
/// A placeholder that lists the routes until the contract (docs/openapi.json) replaces it.
enum OpenAPIDocument {
  static let json: String = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "stores-server",
        "version": "0.1.0",
        "description": "Placeholder until the contract lands."
      },
      "paths": {
        "/v1/stores/nearest": {
          "get": {
            "summary": "The stores nearest a point",
            "responses": {
              "200": {
                "description": "OK"
              }
            }
          }
        },
        "/v1/stores/within": {
          "get": {
            "summary": "Every store in a circle or a box, paged",
            "responses": {
              "200": {
                "description": "OK"
              }
            }
          }
        },
        "/v1/stores/{id}": {
          "get": {
            "summary": "One store and its state",
            "responses": {
              "200": {
                "description": "OK"
              }
            },
            "parameters": [
              {
                "name": "id",
                "in": "path",
                "required": true,
                "schema": {
                  "type": "string"
                }
              }
            ]
          }
        },
        "/v1/stores/{id}/hours": {
          "get": {
            "summary": "A store's hours, day by day",
            "responses": {
              "200": {
                "description": "OK"
              }
            },
            "parameters": [
              {
                "name": "id",
                "in": "path",
                "required": true,
                "schema": {
                  "type": "string"
                }
              }
            ]
          }
        },
        "/v1/stores/{id}/open": {
          "get": {
            "summary": "Whether a store is open",
            "responses": {
              "200": {
                "description": "OK"
              }
            },
            "parameters": [
              {
                "name": "id",
                "in": "path",
                "required": true,
                "schema": {
                  "type": "string"
                }
              }
            ]
          }
        },
        "/v1/pickup": {
          "post": {
            "summary": "Assign a pickup store",
            "responses": {
              "200": {
                "description": "OK"
              }
            }
          }
        },
        "/v1/info": {
          "get": {
            "summary": "Summary of the data",
            "responses": {
              "200": {
                "description": "OK"
              }
            }
          }
        },
        "/healthz": {
          "get": {
            "summary": "Liveness",
            "responses": {
              "200": {
                "description": "OK"
              }
            }
          }
        },
        "/readyz": {
          "get": {
            "summary": "Readiness",
            "responses": {
              "200": {
                "description": "OK"
              }
            }
          }
        },
        "/metrics": {
          "get": {
            "summary": "Prometheus metrics",
            "responses": {
              "200": {
                "description": "OK"
              }
            }
          }
        },
        "/openapi.json": {
          "get": {
            "summary": "This document",
            "responses": {
              "200": {
                "description": "OK"
              }
            }
          }
        },
        "/admin/reload": {
          "post": {
            "summary": "Reload the data",
            "responses": {
              "200": {
                "description": "OK"
              }
            }
          }
        }
      }
    }
    """#
}
