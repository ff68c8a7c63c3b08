import "@testing-library/jest-dom/vitest";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { i18nConfig, resources } from "../../app/i18n/config";
import "./fail-on-console";

await i18next.use(initReactI18next).init({ ...i18nConfig, lng: "en", resources });
