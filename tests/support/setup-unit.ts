import "@testing-library/jest-dom/vitest";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { i18nConfig } from "../../app/i18n/config";
import { resources } from "../../app/i18n/resources";
import "./fail-on-console";

await i18next.use(initReactI18next).init({ ...i18nConfig, lng: "en", resources });
